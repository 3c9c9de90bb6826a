#pragma once
// Fontconfig (font choice and fallback) and HarfBuzz (shaping) for the broker's text
// measurement; FreeType comes along as HarfBuzz's and fontconfig's font loader. Only the
// NookText target imports this.
#include <fontconfig/fontconfig.h>
#include <hb.h>
#include <hb-ot.h>

// FcPatternBuild and friends are variadic and do not import into Swift; these do not need them.
