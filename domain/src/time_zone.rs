//! A unit's IANA time zone, from its state and city (issue 39, ADR 0013). Brazil has four
//! offsets: Fernando de Noronha UTC−2; most of the country UTC−3; Mato Grosso (do Sul),
//! Rondônia, Roraima and most of Amazonas UTC−4; Acre and south-west Amazonas UTC−5. Every
//! rule tied to a unit (its today, the past, cut-offs) reads the unit's zone, so a unit in
//! Manaus on São Paulo's clock was an hour off. The unit form can correct the zone.

/// The zone a unit has when nothing says otherwise, and the clock of what belongs to no
/// unit (ADR 0013).
pub const DEFAULT_TIME_ZONE: &str = "America/Sao_Paulo";

/// The zones a unit may be in, with how the unit form names them.
pub const UNIT_TIME_ZONES: &[(&str, &str)] = &[
    ("America/Noronha", "Fernando de Noronha (UTC−2)"),
    ("America/Sao_Paulo", "Brasília: SP, RJ, MG, ES, GO, DF, PR, SC, RS (UTC−3)"),
    ("America/Bahia", "Bahia (UTC−3)"),
    ("America/Fortaleza", "MA, PI, CE, RN, PB (UTC−3)"),
    ("America/Recife", "Pernambuco (UTC−3)"),
    ("America/Maceio", "Alagoas e Sergipe (UTC−3)"),
    ("America/Araguaina", "Tocantins (UTC−3)"),
    ("America/Belem", "Pará e Amapá (UTC−3)"),
    ("America/Cuiaba", "Mato Grosso (UTC−4)"),
    ("America/Campo_Grande", "Mato Grosso do Sul (UTC−4)"),
    ("America/Porto_Velho", "Rondônia (UTC−4)"),
    ("America/Boa_Vista", "Roraima (UTC−4)"),
    ("America/Manaus", "Amazonas (UTC−4)"),
    ("America/Eirunepe", "Amazonas, sudoeste (UTC−5)"),
    ("America/Rio_Branco", "Acre (UTC−5)"),
];

/// A zone not in [`UNIT_TIME_ZONES`].
pub const MSG_BAD_TIME_ZONE: &str = "Escolha um fuso horário da lista";

/// The municipalities of Amazonas on Acre's time (UTC−5) since 2013.
const AMAZONAS_WEST: &[&str] = &[
    "atalaia do norte",
    "benjamin constant",
    "boca do acre",
    "eirunepe",
    "envira",
    "guajara",
    "ipixuna",
    "itamarati",
    "jutai",
    "labrea",
    "pauini",
    "sao paulo de olivenca",
    "tabatinga",
];

/// The zone of a unit in `city`, `state` (UF): the state's, except Fernando de Noronha
/// (PE) and south-west Amazonas. A state that is not a UF gets São Paulo's.
pub fn zone_of_address(state: &str, city: &str) -> &'static str {
    let city = folded(city);
    match state.trim().to_uppercase().as_str() {
        "AC" => "America/Rio_Branco",
        "AM" if AMAZONAS_WEST.contains(&city.as_str()) => "America/Eirunepe",
        "AM" => "America/Manaus",
        "RR" => "America/Boa_Vista",
        "RO" => "America/Porto_Velho",
        "MT" => "America/Cuiaba",
        "MS" => "America/Campo_Grande",
        "PA" | "AP" => "America/Belem",
        "TO" => "America/Araguaina",
        "MA" | "PI" | "CE" | "RN" | "PB" => "America/Fortaleza",
        "PE" if city == "fernando de noronha" => "America/Noronha",
        "PE" => "America/Recife",
        "AL" | "SE" => "America/Maceio",
        "BA" => "America/Bahia",
        _ => DEFAULT_TIME_ZONE,
    }
}

/// Whether `zone` is one a unit may be in.
pub fn is_unit_zone(zone: &str) -> bool {
    UNIT_TIME_ZONES.iter().any(|(known, _)| *known == zone)
}

/// A city's name as compared: lowercase, without accents, spaces collapsed.
fn folded(city: &str) -> String {
    let plain: String = city
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            other => other,
        })
        .collect();
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_takes_its_states_zone_and_its_citys_where_they_differ() {
        assert_eq!(zone_of_address("SP", "São Paulo"), "America/Sao_Paulo");
        assert_eq!(zone_of_address("mg", "Belo Horizonte"), "America/Sao_Paulo");
        assert_eq!(zone_of_address("AM", "Manaus"), "America/Manaus");
        assert_eq!(zone_of_address("AM", "  Eirunepé "), "America/Eirunepe");
        assert_eq!(zone_of_address("AM", "SÃO PAULO DE OLIVENÇA"), "America/Eirunepe");
        assert_eq!(zone_of_address("AC", "Rio Branco"), "America/Rio_Branco");
        assert_eq!(zone_of_address("RR", "Boa Vista"), "America/Boa_Vista");
        assert_eq!(zone_of_address("RO", "Porto Velho"), "America/Porto_Velho");
        assert_eq!(zone_of_address("MT", "Cuiabá"), "America/Cuiaba");
        assert_eq!(zone_of_address("MS", "Campo Grande"), "America/Campo_Grande");
        assert_eq!(zone_of_address("PE", "Fernando de Noronha"), "America/Noronha");
        assert_eq!(zone_of_address("PE", "Recife"), "America/Recife");
        assert_eq!(zone_of_address("--", ""), "America/Sao_Paulo");
    }

    #[test]
    fn every_zone_a_state_gives_is_on_the_forms_list_and_in_the_iana_database() {
        let states = [
            "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR",
            "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
        ];
        for state in states {
            assert!(is_unit_zone(zone_of_address(state, "")), "{state}");
        }
        assert!(is_unit_zone(zone_of_address("AM", "Tabatinga")));
        assert!(is_unit_zone(zone_of_address("PE", "Fernando de Noronha")));
        for (zone, _) in UNIT_TIME_ZONES {
            assert!(zone.parse::<chrono_tz::Tz>().is_ok(), "{zone}");
        }
    }
}
