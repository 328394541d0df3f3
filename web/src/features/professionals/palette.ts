/**
 * The 12 agenda colours of spec 02 §3, with the server's hex values
 * (domain/src/professional.rs PALETTE; it only accepts these).
 */
export const PALETTE = [
  { hex: '#FF9800', label: 'Laranja' },
  { hex: '#FFEB3B', label: 'Amarelo' },
  { hex: '#8BC34A', label: 'Verde claro' },
  { hex: '#2E7D32', label: 'Verde escuro' },
  { hex: '#81D4FA', label: 'Azul claro' },
  { hex: '#1565C0', label: 'Azul escuro' },
  { hex: '#9E9E9E', label: 'Cinza' },
  { hex: '#E91E63', label: 'Rosa' },
  { hex: '#F48FB1', label: 'Rosa claro' },
  { hex: '#7B1FA2', label: 'Roxo' },
  { hex: '#000000', label: 'Preto' },
  { hex: '#D32F2F', label: 'Vermelho' },
] as const;

export const PALETTE_HEX: readonly string[] = PALETTE.map((colour) => colour.hex);

/** Status labels of a professional (spec 02 §4: Pending=0, Active=1, Inactive=2). */
export const PROFESSIONAL_STATUS_LABEL: Record<number, string> = { 0: 'Pendente', 1: 'Ativo', 2: 'Inativo' };

export const PROFESSIONAL_STATUS_OPTIONS = [
  { value: '0', label: 'Pendente' },
  { value: '1', label: 'Ativo' },
  { value: '2', label: 'Inativo' },
] as const;
