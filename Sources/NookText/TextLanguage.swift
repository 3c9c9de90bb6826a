import CFontText
import Glibc

/// The language fontconfig sorts fallback fonts for, per script, as Pango derives it: the
/// locale's language when it is written in that script (or nothing is known about it), else
/// the script's sample language (`ja` for kana, `zh-cn` for Han, `ar` for Arabic, ...).
///
/// Pango reads the locale from `setlocale(LC_CTYPE)`, which GTK sets from the environment;
/// the broker reads the same variables (`LC_ALL`, `LC_CTYPE`, `LANG`) and, like `setlocale`,
/// falls back to `C` when that locale is not installed.
struct TextLanguage {
    /// Lowercase, `-` separated (`en-us`), or `c`.
    let locale: String

    init(environment: [String: String]) {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        var installed = false
        if name != "C", name != "POSIX", let handle = newlocale(LC_CTYPE_MASK, name, nil) {
            freelocale(handle)
            installed = true
        }
        let bare = installed ? name.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? name : "C"
        locale = String(bare.lowercased().map { $0 == "_" ? "-" : $0 })
    }

    static var current: TextLanguage {
        var environment: [String: String] = [:]
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return TextLanguage(environment: environment)
    }

    /// The language fontconfig gets for a run in `script`.
    func language(for script: hb_script_t) -> String {
        if script == HB_SCRIPT_COMMON || Self.includes(locale, script) { return locale }
        return Self.sampleLanguages[script.rawValue] ?? "xx"
    }

    /// Whether `language` is written in `script`; true when nothing is known about it.
    static func includes(_ language: String, _ script: hb_script_t) -> Bool {
        let primary = language.split(separator: "-").first.map(String.init) ?? language
        guard let scripts = languageScripts[primary] else { return true }
        return scripts.contains(script.rawValue)
    }

    private static func tag(_ text: String) -> UInt32 { hb_script_from_string(text, -1).rawValue }

    private static let latin = [tag("Latn")]
    /// The scripts of the languages a desktop is commonly set to.
    static let languageScripts: [String: [UInt32]] = {
        var table: [String: [UInt32]] = [:]
        for code in ["en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "nn", "no", "fi", "pl", "cs", "sk", "hu", "ro",
                     "tr", "hr", "sl", "et", "lv", "lt", "is", "ga", "ca", "eu", "gl", "id", "ms", "vi", "af", "sq", "eo"] {
            table[code] = latin
        }
        for code in ["ru", "uk", "bg", "be", "mk", "sr", "kk"] { table[code] = [tag("Cyrl")] }
        table["el"] = [tag("Grek")]
        table["ja"] = [tag("Hani"), tag("Hira"), tag("Kana")]
        table["ko"] = [tag("Hang"), tag("Hani")]
        table["zh"] = [tag("Hani"), tag("Bopo")]
        for code in ["ar", "fa", "ur"] { table[code] = [tag("Arab")] }
        for code in ["he", "yi"] { table[code] = [tag("Hebr")] }
        table["th"] = [tag("Thai")]
        table["hi"] = [tag("Deva")]
        return table
    }()

    /// Pango's sample language per script.
    static let sampleLanguages: [UInt32: String] = [
        tag("Arab"): "ar", tag("Armn"): "hy", tag("Beng"): "bn", tag("Bopo"): "zh-tw", tag("Cyrl"): "ru", tag("Deva"): "hi",
        tag("Ethi"): "am", tag("Geor"): "ka", tag("Grek"): "el", tag("Gujr"): "gu", tag("Guru"): "pa", tag("Hani"): "zh-cn",
        tag("Hang"): "ko", tag("Hebr"): "he", tag("Hira"): "ja", tag("Kana"): "ja", tag("Khmr"): "km", tag("Knda"): "kn",
        tag("Laoo"): "lo", tag("Latn"): "en", tag("Mlym"): "ml", tag("Mong"): "mn", tag("Mymr"): "my", tag("Orya"): "or",
        tag("Sinh"): "si", tag("Syrc"): "syr", tag("Taml"): "ta", tag("Telu"): "te", tag("Thaa"): "dv", tag("Thai"): "th",
        tag("Tibt"): "bo",
    ]
}
