/// The strings the broker's text widths are checked on against Pango's: every string the
/// examples show, and a table of 200 mixed ones (Latin with accents, CJK, emoji, Arabic, bold,
/// monospaced digits), each base string in five styles.
enum TextSampleTable {
    struct Sample: Hashable {
        var text: String
        var size: Double
        var weight: Int
        var monospacedDigits: Bool
    }

    /// What the examples put on screen (titles, artists, timers, headers, widgets).
    static let examples: [Sample] = [
        ("Morning Tide", 13.0, 600), ("Paper Lanterns", 15, 600), ("Northbound", 17, 600), ("The Harbour Lights", 11, 400),
        ("Ada & the Modems", 15, 400), ("Simulator", 11, 400), ("Nothing playing", 13, 400), ("Timer 1", 13, 400),
        ("Timers", 17, 700), ("No timer running", 13, 400), ("Steeping", 17, 700), ("1 pot", 13, 400), ("2 pots", 13, 400),
        ("Sencha", 13, 400), ("🍅", 20, 400), ("🍅", 48, 400), ("Focus", 13, 400), ("Focus", 17, 700), ("Toggle", 13, 400),
        ("Large", 13, 400), ("Small", 13, 400), ("1 timer", 13, 400), ("3 timers", 13, 400),
    ].map { Sample(text: $0.0, size: $0.1, weight: $0.2, monospacedDigits: false) } + [
        ("04:59", 13.0, 600), ("1:04:59", 28, 600), ("25:00", 15, 600), ("12:30", 17, 600), ("0:07", 13, 400),
    ].map { Sample(text: $0.0, size: $0.1, weight: $0.2, monospacedDigits: true) }

    /// Forty base strings.
    static let bases: [String] = [
        // Latin with accents and punctuation.
        "Café au lait", "Crème brûlée", "Señor Coconut", "Björk — Jóga", "Dvořák: Symphony No. 9", "Łódź Kaliska",
        "Ælfric’s «Ångström»", "naïve résumé", "Ça ira!", "Zoë & Chloë – Live", "Fjällräven (2024)", "São Paulo · 18°C",
        // CJK.
        "東京タワー", "北京欢迎你", "안녕하세요", "ラーメン屋 3分", "音楽を聴く", "你好，世界！", "Mix 東京 Night", "第九交響曲",
        // Emoji.
        "🍅 Focus", "Party 🎉🎉", "☕ Coffee break", "👍 Done", "🚀 Launch in 5", "⏰ Wake up",
        // Arabic, and mixed with Latin.
        "مرحبا بالعالم", "القاهرة", "موسيقى هادئة", "Radio عربي 99", "السلام عليكم", "كتاب",
        // Digits that must not jitter, and mixed bags.
        "12:34:56", "00:00", "1,234,567.89", "Track 07/12", "x² + y² = z²", "¡Hola! ¿Qué tal?", "Ünïcödé Wörds", "NOOK",
    ]

    /// Five styles per base string: 40 x 5 = 200.
    static let styles: [(size: Double, weight: Int, monospacedDigits: Bool)] = [
        (13, 400, false), (15, 600, false), (17, 700, false), (11, 300, false), (28, 600, true),
    ]

    static var mixed: [Sample] {
        bases.flatMap { base in styles.map { Sample(text: base, size: $0.size, weight: $0.weight, monospacedDigits: $0.monospacedDigits) } }
    }

    static var all: [Sample] { examples + mixed }
}
