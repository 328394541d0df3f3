import * as yup from 'yup';
import { formatBRL } from '@/lib/money';
import { cents, type DiscountMode, type ItemValues, type PaymentValues } from './model';

// The comanda forms' rules, with the server's messages (domain::comanda, command-api comandas.rs),
// so a mistake shows before the call; the server's 422s land on the same fields.

export const MSG = {
  service: 'Escolha o serviço.',
  product: 'Escolha o produto.',
  professional: 'Escolha o profissional.',
  quantity: 'A quantidade deve ser de 1 a 999.',
  percent: 'O desconto deve ser de 0 a 100%.',
  value: 'Informe um valor maior que zero.',
  received: 'O valor recebido é menor que o pagamento.',
  installments: 'Escolha de 1 a 24 parcelas.',
  text: 'No máximo 40 caracteres.',
  reason: 'Informe o motivo.',
  reasonLength: 'O motivo deve ter no máximo 500 caracteres.',
  overpaid: (due: number) => `O pagamento passa do valor que falta (${formatBRL(due)}).`,
};

const isPercentOk = (mode: DiscountMode, value: unknown) => mode !== 'percent' || value === '' || Number(value) <= 100;

export const itemSchema = yup.object({
  kind: yup.string().oneOf(['service', 'product']).required(),
  id: yup.number().test('chosen', function (value) {
    return value ? true : this.createError({ message: this.parent.kind === 'service' ? MSG.service : MSG.product });
  }),
  idProfessional: yup.number().test('chosen', MSG.professional, function (value) {
    return this.parent.kind !== 'service' || !!value;
  }),
  quantity: yup.mixed().test('range', MSG.quantity, (value) => value !== '' && Number(value) >= 1 && Number(value) <= 999),
  discountMode: yup.string().oneOf(['value', 'percent']).required(),
  discount: yup.mixed().test('percent', MSG.percent, function (value) {
    return isPercentOk(this.parent.discountMode, value);
  }),
}) as unknown as yup.ObjectSchema<ItemValues>;

export interface DiscountValues {
  mode: DiscountMode;
  /** Reais or percent, by the mode; 0 takes the discount off. */
  amount: number | '';
}

export const discountSchema = yup.object({
  mode: yup.string().oneOf(['value', 'percent']).required(),
  amount: yup.mixed().test('percent', MSG.percent, function (value) {
    return isPercentOk(this.parent.mode, value);
  }),
}) as unknown as yup.ObjectSchema<DiscountValues>;

export interface TipValues {
  idProfessional: number;
  value: number;
}

export const tipSchema = yup.object({
  idProfessional: yup.number().required().moreThan(0, MSG.professional),
  value: yup.number().required().moreThan(0, MSG.value),
}) as yup.ObjectSchema<TipValues>;

/** The payment form's rules; `due` is what is left to pay. */
export const paymentSchema = (due: number) =>
  yup.object({
    method: yup.string().oneOf(['cash', 'pix', 'credit', 'debit']).required(),
    value: yup
      .number()
      .required()
      .moreThan(0, MSG.value)
      .test('due', MSG.overpaid(due), (value) => cents(value ?? 0) <= cents(due)),
    cashReceived: yup.number().test('covers', MSG.received, function (value) {
      return this.parent.method !== 'cash' || !value || cents(value) >= cents(this.parent.value ?? 0);
    }),
    installments: yup.mixed().test('range', MSG.installments, function (value) {
      return this.parent.method !== 'credit' || (value !== '' && Number(value) >= 1 && Number(value) <= 24);
    }),
    brand: yup.string().max(40, MSG.text),
    authorizationCode: yup.string().max(40, MSG.text),
    nsu: yup.string().max(40, MSG.text),
  }) as unknown as yup.ObjectSchema<PaymentValues>;

export interface ReasonValues {
  reason: string;
}

export const reasonSchema = yup.object({
  reason: yup.string().trim().required(MSG.reason).max(500, MSG.reasonLength),
}) as yup.ObjectSchema<ReasonValues>;
