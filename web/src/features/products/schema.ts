import * as yup from 'yup';
import type { Product, ProductMinimum, ProductPayload, ProductUnit } from './types';

/** A unit's line of 'Estoque mínimo por unidade': '' is no minimum. */
export interface MinimumValue {
  idCompany: number;
  minimum: number | '';
}

export interface ProductFormValues {
  name: string;
  /** Reais (MoneyField). */
  price: number;
  active: boolean;
  brand: string;
  /** EAN/GTIN digits; '' when the product has none. */
  barcode: string;
  category: string;
  /** Reais (MoneyField); 0 is not informed. */
  cost: number;
  unit: ProductUnit;
  /** One line per unit of the user's. */
  minimums: MinimumValue[];
}

/** The server's limits and messages (domain::product). */
export const PRODUCT_NAME_MAX = 80;
export const PRODUCT_TEXT_MAX = 60;
export const PRODUCT_PRICE_MAX = 100_000;
export const PRODUCT_MINIMUM_MAX = 100_000;
export const PRODUCT_MSG = {
  name: 'Informe o nome do produto.',
  nameLength: `O nome deve ter no máximo ${PRODUCT_NAME_MAX} caracteres.`,
  price: 'Informe um preço maior que zero.',
  priceMax: 'O preço deve ser de no máximo R$ 100.000,00.',
  barcode: 'Código de barras inválido.',
  cost: 'O custo não pode ser negativo.',
  costMax: 'O custo deve ser de no máximo R$ 100.000,00.',
  minimum: 'O estoque mínimo deve ser de 0 a 100.000.',
};

/** The units of measure, in the order the form offers them. */
export const PRODUCT_UNITS: readonly ProductUnit[] = ['un', 'ml', 'g'];

export const UNIT_OPTIONS: readonly { value: ProductUnit; label: string }[] = [
  { value: 'un', label: 'Unidade (un)' },
  { value: 'ml', label: 'Mililitro (ml)' },
  { value: 'g', label: 'Grama (g)' },
];

/** A barcode as typed, without spaces. */
const barcodeDigits = (text: string) => text.replace(/\s/g, '');

/**
 * Whether digits are an EAN/GTIN code (GTIN-8, UPC-A, EAN-13 or GTIN-14) whose last digit is
 * its check digit: from the right, the others weigh 3, 1, 3, 1...; the check digit makes the
 * sum a multiple of 10.
 */
export function isValidGtin(code: string): boolean {
  if (!/^\d+$/.test(code) || ![8, 12, 13, 14].includes(code.length)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** A whole number from 0 to the most, or '' (no minimum). */
const minimumRule = yup
  .mixed<number | ''>()
  .test(
    'minimum',
    PRODUCT_MSG.minimum,
    (value) => value === '' || value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= PRODUCT_MINIMUM_MAX),
  );

export const productSchema = yup.object({
  name: yup.string().trim().required(PRODUCT_MSG.name).max(PRODUCT_NAME_MAX, PRODUCT_MSG.nameLength),
  price: yup.number().required(PRODUCT_MSG.price).moreThan(0, PRODUCT_MSG.price).max(PRODUCT_PRICE_MAX, PRODUCT_MSG.priceMax),
  active: yup.boolean().default(true),
  brand: yup.string().default(''),
  barcode: yup
    .string()
    .default('')
    .test('gtin', PRODUCT_MSG.barcode, (value) => !barcodeDigits(value ?? '') || isValidGtin(barcodeDigits(value ?? ''))),
  category: yup.string().default(''),
  cost: yup.number().default(0).min(0, PRODUCT_MSG.cost).max(PRODUCT_PRICE_MAX, PRODUCT_MSG.costMax),
  unit: yup.string().oneOf(PRODUCT_UNITS).default('un'),
  minimums: yup
    .array(yup.object({ idCompany: yup.number().required(), minimum: minimumRule }))
    .default([]),
}) as yup.ObjectSchema<ProductFormValues>;

export const EMPTY_PRODUCT: ProductFormValues = {
  name: '',
  price: 0,
  active: true,
  brand: '',
  barcode: '',
  category: '',
  cost: 0,
  unit: 'un',
  minimums: [],
};

/**
 * The minimums' lines: one per unit of the user's, in their order ('' where none is set). Only
 * those: the server refuses a minimum for a unit that is not the caller's.
 */
export const minimumLines = (minimums: readonly ProductMinimum[], unitIds: readonly number[]): MinimumValue[] =>
  unitIds.map((idCompany) => ({
    idCompany,
    minimum: minimums.find((m) => m.IdCompany === idCompany)?.Minimum ?? ('' as const),
  }));

/** A product as the form's values; a server from before issue 43 answers without the new fields. */
export const productValues = (product: Product | null, unitIds: readonly number[]): ProductFormValues =>
  product
    ? {
        name: product.Name,
        price: product.Price,
        active: product.Active,
        brand: product.Brand ?? '',
        barcode: product.Barcode ?? '',
        category: product.Category ?? '',
        cost: product.Cost ?? 0,
        unit: PRODUCT_UNITS.find((unit) => unit === product.Unit) ?? 'un',
        minimums: minimumLines(product.Minimums ?? [], unitIds),
      }
    : { ...EMPTY_PRODUCT, minimums: minimumLines([], unitIds) };

/** Trimmed, inner spaces collapsed; null when empty. */
const textOrNull = (text: string) => text.trim().split(/\s+/).join(' ') || null;

/** Body of POST product and PUT product/{id}. */
export const productPayload = (values: ProductFormValues): ProductPayload => ({
  name: values.name.trim().split(/\s+/).join(' '),
  price: values.price,
  active: values.active,
  brand: textOrNull(values.brand),
  barcode: barcodeDigits(values.barcode) || null,
  category: textOrNull(values.category),
  cost: values.cost > 0 ? values.cost : null,
  unit: values.unit,
  minimums: values.minimums.flatMap((line) =>
    line.minimum === '' ? [] : [{ idCompany: line.idCompany, minimum: line.minimum }],
  ),
});

/** Only ADMIN adds or changes products; every role reads them (docs/money.md). */
export const mayEditProducts = (role: string | null) => role === 'ADMIN';
