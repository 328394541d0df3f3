import * as yup from 'yup';
import type { Product, ProductPayload } from './types';

export interface ProductFormValues {
  name: string;
  /** Reais (MoneyField). */
  price: number;
  active: boolean;
}

/** The server's limits and messages (domain::product). */
export const PRODUCT_NAME_MAX = 80;
export const PRODUCT_PRICE_MAX = 100_000;
export const PRODUCT_MSG = {
  name: 'Informe o nome do produto.',
  nameLength: `O nome deve ter no máximo ${PRODUCT_NAME_MAX} caracteres.`,
  price: 'Informe um preço maior que zero.',
  priceMax: 'O preço deve ser de no máximo R$ 100.000,00.',
};

export const productSchema = yup.object({
  name: yup.string().trim().required(PRODUCT_MSG.name).max(PRODUCT_NAME_MAX, PRODUCT_MSG.nameLength),
  price: yup.number().required(PRODUCT_MSG.price).moreThan(0, PRODUCT_MSG.price).max(PRODUCT_PRICE_MAX, PRODUCT_MSG.priceMax),
  active: yup.boolean().default(true),
}) as yup.ObjectSchema<ProductFormValues>;

export const EMPTY_PRODUCT: ProductFormValues = { name: '', price: 0, active: true };

export const productValues = (product: Product): ProductFormValues => ({
  name: product.Name,
  price: product.Price,
  active: product.Active,
});

/** Body of POST product and PUT product/{id}. */
export const productPayload = (values: ProductFormValues): ProductPayload => ({
  name: values.name.trim().split(/\s+/).join(' '),
  price: values.price,
  active: values.active,
});

/** Only ADMIN adds or changes products; every role reads them (docs/money.md). */
export const mayEditProducts = (role: string | null) => role === 'ADMIN';
