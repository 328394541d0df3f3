// The stock screens' words and figures, pure: the movements' labels, who may record which,
// quantities as the screens write them, the movement form's rules and body, a movement's
// detail and the CSV.
import * as yup from 'yup';
import { formatWallClock } from '@/features/subscribers/timeline';
import { csvDocument, csvNumber, csvText, fileSlug } from '@/lib/csv';
import { formatBRL } from '@/lib/money';
import type { MovementItem, MovementItemKind, MovementKind, StockAnswer, StockMovementPayload } from './types';

export const STOCK_PATH = '/dashboard/stock';

/** A product's movements; with a unit, filtered to it. */
export const stockMovementsPath = (idProduct: number, idCompany?: number | null) =>
  `${STOCK_PATH}/${idProduct}${idCompany ? `?idCompany=${idCompany}` : ''}`;

/** A comanda's screen (a sale's movement links to it). */
export const comandaPath = (id: number) => `/dashboard/comanda/${id}`;

// ---------------------------------------------------------------------------
// Kinds and who records them

/** The movements the screen records, in the order of the row's buttons. */
export const MOVEMENT_KINDS: readonly MovementKind[] = ['entrada', 'uso_interno', 'ajuste', 'transferencia'];

export const MOVEMENT_KIND_LABELS: Record<MovementItemKind, string> = {
  entrada: 'Entrada',
  venda: 'Venda',
  uso_interno: 'Uso interno',
  ajuste: 'Ajuste',
  transferencia: 'Transferência',
};

/** A movement's kind as the screens name it; an unknown code shows as sent. */
export const movementKindLabel = (kind: string) => MOVEMENT_KIND_LABELS[kind as MovementItemKind] ?? kind;

/** ADMIN and ATTENDANT reach the stock (the server answers them alone). */
export const mayReachStock = (role: string | null | undefined) => role === 'ADMIN' || role === 'ATTENDANT';

/**
 * The movements a role records: ADMIN every one (a transfer only with another unit to send
 * to); ATTENDANT entries and internal use, at their units; nobody else any.
 */
export function movementKindsFor(role: string | null | undefined, unitCount: number): MovementKind[] {
  if (role === 'ADMIN') return MOVEMENT_KINDS.filter((kind) => kind !== 'transferencia' || unitCount > 1);
  if (role === 'ATTENDANT') return ['entrada', 'uso_interno'];
  return [];
}

/** Whoever reaches the stock looks at it as it stood at an earlier instant (the server answers both). */
export const mayLookBack = mayReachStock;

// ---------------------------------------------------------------------------
// Quantities

const MINUS = '\u2212';
const quantityFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 });

/** '3 un', '1.250 ml', '1,5 g', '−2 un' (a unit selling without stock). */
export const quantityText = (quantity: number, unit: string) =>
  `${quantity < 0 ? MINUS : ''}${quantityFormat.format(Math.abs(quantity))} ${unit}`;

/** A change, its sign always written: '+5 un', '−1 un', '0 un'. */
export const signedQuantityText = (quantity: number, unit: string) =>
  `${quantity > 0 ? '+' : ''}${quantityText(quantity, unit)}`;

/** The 'Ver como estava em' control's value as asOf ('YYYY-MM-DDTHH:MM[:SS]', the units' clock), or null. */
export function asOfOfInput(value: string): string | null {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? value : null;
}

/** The past view's banner. */
export const pastViewText = (asOf: string) =>
  `Como estava em ${formatWallClock(asOf)}. Visão do passado, somente leitura: nenhuma movimentação pode ser registrada.`;

// ---------------------------------------------------------------------------
// The movement form

export const MOVEMENT_SAVED = 'Movimentação registrada.';

/** The server's bounds (domain::stock): quantities up to 100.000, texts up to 120 characters. */
export const MOVEMENT_QUANTITY_MAX = 100_000;
export const MOVEMENT_TEXT_MAX = 120;

/** The dialog's title: the kind ('Ajuste' counts the stock). */
export const movementTitle = (kind: MovementKind) => (kind === 'ajuste' ? 'Ajuste de estoque' : MOVEMENT_KIND_LABELS[kind]);

/** 'Quantidade', or 'Quantidade contada' for an adjustment (the count replaces the quantity). */
export const quantityLabel = (kind: MovementKind) => (kind === 'ajuste' ? 'Quantidade contada' : 'Quantidade');

export interface MovementValues {
  /** Not fields of their own: the button and the unit chosen (the server's 422 on them shows in the dialog). */
  kind: MovementKind;
  idCompany: number;
  quantity: number | '';
  /** entrada: reais per unit of measure (R$ 0,00 allowed: a free sample). */
  unitCost: number;
  supplier: string;
  reason: string;
  /** transferencia: '' until chosen. */
  idCompanyTo: string;
}

/** The server's messages (domain::stock). */
export const MOVEMENT_MSG = {
  quantity: 'Informe a quantidade.',
  positive: 'Informe uma quantidade maior que zero.',
  counted: 'Informe a quantidade contada.',
  reason: 'Informe o motivo do ajuste.',
  unitCost: 'O custo não pode ser negativo.',
  idCompanyTo: 'Escolha a unidade de destino.',
};

/** A new movement; an entry starts at the product's average cost, when it has one. */
export const emptyMovement = (kind: MovementKind, idCompany: number, averageCost?: number | null): MovementValues => ({
  kind,
  idCompany,
  quantity: '',
  unitCost: averageCost ?? 0,
  supplier: '',
  reason: '',
  idCompanyTo: '',
});

export const movementSchema = yup.object({
  kind: yup.string().oneOf(MOVEMENT_KINDS).required(),
  idCompany: yup.number().required(),
  quantity: yup.mixed<number | ''>().test('quantity', function (value) {
    const counted = (this.parent as MovementValues).kind === 'ajuste';
    if (typeof value !== 'number') return this.createError({ message: counted ? MOVEMENT_MSG.counted : MOVEMENT_MSG.quantity });
    if (!counted && value <= 0) return this.createError({ message: MOVEMENT_MSG.positive });
    return true;
  }),
  unitCost: yup.number().default(0).min(0, MOVEMENT_MSG.unitCost),
  supplier: yup.string().default(''),
  reason: yup
    .string()
    .default('')
    .when('kind', { is: 'ajuste', then: (rule) => rule.trim().required(MOVEMENT_MSG.reason) }),
  idCompanyTo: yup
    .string()
    .default('')
    .when('kind', { is: 'transferencia', then: (rule) => rule.required(MOVEMENT_MSG.idCompanyTo) }),
}) as yup.ObjectSchema<MovementValues>;

/** Trimmed, or nothing when empty. */
const text = (value: string) => value.trim() || undefined;

/** Body of POST product/{id}/movements: only the fields of the kind. */
export function movementPayload(values: MovementValues): StockMovementPayload {
  const base = { kind: values.kind, idCompany: values.idCompany, quantity: Number(values.quantity) };
  switch (values.kind) {
    case 'entrada':
      // The cost is required (R$ 0,00 included); the supplier is not.
      return { ...base, unitCost: values.unitCost, ...(text(values.supplier) ? { supplier: text(values.supplier) } : {}) };
    case 'uso_interno':
      return { ...base, ...(text(values.reason) ? { reason: text(values.reason) } : {}) };
    case 'ajuste':
      return { ...base, reason: values.reason.trim() };
    case 'transferencia':
      return { ...base, idCompanyTo: Number(values.idCompanyTo) };
  }
}

// ---------------------------------------------------------------------------
// A movement of the history

export const comandaText = (idComanda: number) => `Comanda N.º ${idComanda}`;

/**
 * What else a movement says, in order: the supplier and the unit cost of an entry, the reason,
 * and where a transfer went ('para') or came from ('de'). A sale's comanda is apart: a link.
 */
export function movementDetails(item: MovementItem): string[] {
  const details: string[] = [];
  if (item.Supplier) details.push(`Fornecedor: ${item.Supplier}`);
  if (item.Kind === 'entrada' && item.UnitCost != null) details.push(`Custo unitário ${formatBRL(item.UnitCost)}`);
  if (item.Reason) details.push(item.Reason);
  if (item.OtherCompanyName) details.push(`${item.Quantity < 0 ? 'para' : 'de'} ${item.OtherCompanyName}`);
  return details;
}

// ---------------------------------------------------------------------------
// The CSV

export const STOCK_CSV_HEADER = [
  'Produto',
  'Marca',
  'Categoria',
  'Unidade de medida',
  'Quantidade',
  'Mínimo',
  'Abaixo do mínimo',
  'Custo médio',
  'Valor em estoque',
];

/** '1,5', '-2': a quantity with a decimal comma, no thousands separator. */
export const csvQuantity = (quantity: number) => String(quantity).replace('.', ',');

/**
 * The unit's stock as a CSV for a spreadsheet, like the commissions' one: a line per row of
 * the table, then the total; ';' separated, decimal comma, CRLF line ends, UTF-8 with a BOM.
 */
export function stockCsv(stock: StockAnswer): string {
  const rows: string[][] = [
    STOCK_CSV_HEADER,
    ...stock.Items.map((row) => [
      csvText(row.Name),
      csvText(row.Brand ?? ''),
      csvText(row.Category ?? ''),
      row.Unit,
      csvQuantity(row.Quantity),
      row.Minimum == null ? '' : csvQuantity(row.Minimum),
      row.Low ? 'Sim' : 'Não',
      row.AverageCost == null ? '' : csvNumber(row.AverageCost),
      csvNumber(row.Value),
    ]),
    ['Total', '', '', '', '', '', '', '', csvNumber(stock.TotalValue)],
  ];
  return csvDocument(rows);
}

/** 'estoque-navalha-centro-2026-11-27.csv' (the day asked, or today). */
export const stockCsvFileName = (unitName: string, day: string) => `estoque-${fileSlug(unitName, 'unidade')}-${day}.csv`;
