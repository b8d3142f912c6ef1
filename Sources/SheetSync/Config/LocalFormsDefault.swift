import SheetSyncCore

/// The `dateOrder` and `decimalSeparator` `init` gives a new ledger: from the locale (`$LC_ALL`,
/// `$LC_TIME`/`$LC_NUMERIC`, `$LANG`) when it names a country, else from the ledger's time zone, else
/// the strict `ymd` and a point. The tables are in docs/local-forms.md; `init --date-order` and
/// `--decimal-separator` choose instead.
public enum LocalFormsDefault {
    /// The forms, with where each came from (for `init` to say).
    public static func guess(environment: [String: String], timeZone: String) -> (forms: LocalForms, source: String) {
        let dateLocale = locale(environment, "LC_TIME")
        let numberLocale = locale(environment, "LC_NUMERIC")
        let order: LocalForms.DateOrder
        let orderSource: String
        if let (_, country) = dateLocale?.parts, let country {
            order = dateOrder(country: country)
            orderSource = "locale \(dateLocale?.name ?? "")"
        } else if let zoneOrder = dateOrder(zone: timeZone) {
            order = zoneOrder
            orderSource = "time zone \(timeZone)"
        } else {
            order = .ymd
            orderSource = "no locale or time zone that says"
        }
        let separator: LocalForms.DecimalSeparator
        let separatorSource: String
        if let (language, country) = numberLocale?.parts {
            separator = decimalSeparator(language: language, country: country)
            separatorSource = "locale \(numberLocale?.name ?? "")"
        } else {
            separator = decimalSeparator(zone: timeZone)
            separatorSource = "time zone \(timeZone)"
        }
        let source =
            orderSource == separatorSource ? orderSource : "\(orderSource); decimalSeparator from \(separatorSource)"
        return (LocalForms(dateOrder: order, decimalSeparator: separator), source)
    }

    /// The first locale variable set to a language (not `C` or `POSIX`), most specific first.
    static func locale(_ environment: [String: String], _ category: String) -> (name: String, parts: (String, String?))? {
        for key in ["LC_ALL", category, "LANG"] {
            guard let name = environment[key], !name.isEmpty else { continue }
            // `de_DE.UTF-8@euro` → `de`, `DE`.
            let base = name.prefix { $0 != "." && $0 != "@" }
            if base == "C" || base == "POSIX" { return nil }
            let pieces = base.split(separator: "_", maxSplits: 1).map(String.init)
            guard let language = pieces.first?.lowercased(), !language.isEmpty else { return nil }
            return (name, (language, pieces.count > 1 ? pieces[1].uppercased() : nil))
        }
        return nil
    }

    /// Countries that write the month first, and those that write the year first.
    static let monthFirstCountries: Set<String> = ["US", "PR", "PH", "GU", "AS", "VI", "UM", "MH", "FM", "PW"]
    static let yearFirstCountries: Set<String> = ["CN", "JP", "KR", "TW", "HU", "LT", "MN", "SE", "CA"]

    static func dateOrder(country: String) -> LocalForms.DateOrder {
        if monthFirstCountries.contains(country) { return .mdy }
        if yearFirstCountries.contains(country) { return .ymd }
        return .dmy
    }

    /// The zones of the countries above; nil for `Etc/…`, `UTC` and names that say nothing.
    static func dateOrder(zone: String) -> LocalForms.DateOrder? {
        if zone.hasPrefix("US/") || monthFirstZones.contains(zone) || zone.hasPrefix("America/Indiana/")
            || zone.hasPrefix("America/Kentucky/") || zone.hasPrefix("America/North_Dakota/")
        {
            return .mdy
        }
        if yearFirstZones.contains(zone) || zone.hasPrefix("Canada/") { return .ymd }
        let region = zone.prefix { $0 != "/" }
        guard zone.contains("/"), ["Europe", "Africa", "Asia", "America", "Australia", "Pacific", "Atlantic", "Indian"].contains(region)
        else { return nil }
        return .dmy
    }

    static let monthFirstZones: Set<String> = [
        "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Phoenix", "America/Anchorage",
        "America/Detroit", "America/Boise", "America/Juneau", "America/Adak", "America/Nome", "America/Sitka", "America/Yakutat",
        "America/Metlakatla", "America/Menominee", "America/Puerto_Rico", "Pacific/Honolulu", "Pacific/Guam", "Asia/Manila",
    ]
    static let yearFirstZones: Set<String> = [
        "Asia/Shanghai", "Asia/Tokyo", "Asia/Seoul", "Asia/Taipei", "Asia/Ulaanbaatar", "Europe/Budapest", "Europe/Vilnius",
        "Europe/Stockholm", "America/Toronto", "America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Halifax",
        "America/St_Johns", "America/Regina",
    ]

    /// Languages that write a decimal comma, and the countries among them that write a point.
    static let commaLanguages: Set<String> = [
        "de", "fr", "es", "it", "pt", "nl", "ru", "pl", "cs", "sk", "sl", "hr", "sr", "bg", "ro", "hu", "sv", "da", "nb", "nn",
        "no", "fi", "et", "lv", "lt", "el", "tr", "uk", "be", "id", "vi", "ca", "eu", "gl", "is",
    ]
    static let pointCountries: Set<String> = ["CH", "LI", "MX", "US", "GB", "IE", "PR", "DO", "GT", "HN", "NI", "PA", "SV"]

    static func decimalSeparator(language: String, country: String?) -> LocalForms.DecimalSeparator {
        if let country, pointCountries.contains(country) { return .point }
        return commaLanguages.contains(language) ? .comma : .point
    }

    /// A comma for Europe's zones but those of point countries, and for South America's.
    static func decimalSeparator(zone: String) -> LocalForms.DecimalSeparator {
        let pointEurope: Set<String> = [
            "Europe/London", "Europe/Dublin", "Europe/Zurich", "Europe/Vaduz", "Europe/Isle_of_Man", "Europe/Jersey",
            "Europe/Guernsey", "Europe/Gibraltar", "Europe/Malta",
        ]
        if zone.hasPrefix("Europe/") { return pointEurope.contains(zone) ? .point : .comma }
        let commaAmerica: Set<String> = [
            "America/Sao_Paulo", "America/Bogota", "America/Santiago", "America/Caracas", "America/Montevideo", "America/Asuncion",
            "America/La_Paz", "America/Bahia", "America/Fortaleza", "America/Recife", "America/Manaus", "America/Belem",
        ]
        return commaAmerica.contains(zone) || zone.hasPrefix("America/Argentina/") ? .comma : .point
    }
}
