// Issue 39: the zones a unit may be in, as the unit form offers them. The server's list is
// `UNIT_TIME_ZONES` in domain/src/time_zone.rs; it refuses any other zone on the field.

/** The form's choice that lets the server take the zone of the unit's state and city. */
export const FROM_ADDRESS = '';

export const TIME_ZONE_OPTIONS: { value: string; label: string }[] = [
  { value: FROM_ADDRESS, label: 'Automático, pelo estado e cidade' },
  { value: 'America/Noronha', label: 'Fernando de Noronha (UTC−2)' },
  { value: 'America/Sao_Paulo', label: 'Brasília: SP, RJ, MG, ES, GO, DF, PR, SC, RS (UTC−3)' },
  { value: 'America/Bahia', label: 'Bahia (UTC−3)' },
  { value: 'America/Fortaleza', label: 'MA, PI, CE, RN, PB (UTC−3)' },
  { value: 'America/Recife', label: 'Pernambuco (UTC−3)' },
  { value: 'America/Maceio', label: 'Alagoas e Sergipe (UTC−3)' },
  { value: 'America/Araguaina', label: 'Tocantins (UTC−3)' },
  { value: 'America/Belem', label: 'Pará e Amapá (UTC−3)' },
  { value: 'America/Cuiaba', label: 'Mato Grosso (UTC−4)' },
  { value: 'America/Campo_Grande', label: 'Mato Grosso do Sul (UTC−4)' },
  { value: 'America/Porto_Velho', label: 'Rondônia (UTC−4)' },
  { value: 'America/Boa_Vista', label: 'Roraima (UTC−4)' },
  { value: 'America/Manaus', label: 'Amazonas (UTC−4)' },
  { value: 'America/Eirunepe', label: 'Amazonas, sudoeste (UTC−5)' },
  { value: 'America/Rio_Branco', label: 'Acre (UTC−5)' },
];
