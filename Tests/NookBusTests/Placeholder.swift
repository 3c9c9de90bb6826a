import Testing
import NookBus
