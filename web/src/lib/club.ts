// The club's enumerations and status groups (spec 02 §3 and §4), shared by the plans and
// subscribers screens. The server applies the same groups (docs/club.md 'Statuses');
// these exist so a screen can label and colour what the server sends.

export interface Option {
  value: string;
  label: string;
}

/** Plans and plan filters accept only card and boleto (spec 02 §3). */
export const PLAN_PAYMENT_METHODS: Option[] = [
  { value: 'creditcard', label: 'Cartão de crédito' },
  { value: 'boleto', label: 'Boleto' },
];

const PAYMENT_METHOD_LABELS: Record<string, string> = {
  creditcard: 'Cartão de crédito',
  boleto: 'Boleto',
  pix: 'Pix',
};

export const paymentMethodLabel = (code: string | null | undefined) =>
  (code && PAYMENT_METHOD_LABELS[code]) || code || '';

export const PERIODICITIES: Option[] = [
  { value: 'weekly', label: 'Semanal' },
  { value: 'biweekly', label: 'Quinzenal' },
  { value: 'monthly', label: 'Mensal' },
  { value: 'bimonthly', label: 'Bimestral' },
  { value: 'quarterly', label: 'Trimestral' },
  { value: 'biannual', label: 'Semestral' },
  { value: 'yearly', label: 'Anual' },
];

export const periodicityLabel = (code: string | null | undefined) =>
  PERIODICITIES.find((p) => p.value === code)?.label ?? code ?? '';

/** Plan status: 1 active, 0 inactive (spec 02 §4). */
export const PLAN_STATUS_OPTIONS: Option[] = [
  { value: '1', label: 'Ativo' },
  { value: '0', label: 'Inativo' },
];

/** The contract status (InternalStatus), derived by the server. */
export type ContractStatus = 'ACTIVE' | 'PENDING_PAYMENT' | 'CANCELED';

export const CONTRACT_STATUS_OPTIONS: { value: ContractStatus; label: string }[] = [
  { value: 'ACTIVE', label: 'Ativo' },
  { value: 'PENDING_PAYMENT', label: 'Pagamento pendente' },
  { value: 'CANCELED', label: 'Cancelado' },
];

export const contractStatusLabel = (code: string | null | undefined) =>
  CONTRACT_STATUS_OPTIONS.find((s) => s.value === code)?.label ?? code ?? '';

/** The provider's subscription status. */
const SUBSCRIPTION_STATUS_LABELS: Record<string, string> = {
  active: 'Ativa',
  canceled: 'Cancelada',
  closed: 'Encerrada',
  stopped: 'Interrompida',
  waitingPayment: 'Aguardando pagamento',
  inactive: 'Inativa',
};

export const subscriptionStatusLabel = (code: string | null | undefined) =>
  (code && SUBSCRIPTION_STATUS_LABELS[code]) || code || '';

/** Statuses after which the subscription is over: no cancel action (spec 02 §2). */
export const isSubscriptionOver = (code: string | null | undefined) =>
  code === 'canceled' || code === 'closed' || code === 'stopped' || code === 'inactive';

/** Charges counted as amount to receive (spec 02 §4). */
export const TO_RECEIVE_STATUSES = ['notSend', 'pendingBoleto', 'pendingPix'] as const;

/** Charges counted as amount received (spec 02 §4). */
export const RECEIVED_STATUSES = [
  'captured',
  'payExternal',
  'payedBoleto',
  'lessValueBoleto',
  'moreValueBoleto',
  'paidDuplicityBoleto',
  'payedPix',
] as const;

export type ChargeGroup = 'received' | 'toReceive' | 'other';

export function chargeGroup(status: string): ChargeGroup {
  if ((RECEIVED_STATUSES as readonly string[]).includes(status)) return 'received';
  if ((TO_RECEIVE_STATUSES as readonly string[]).includes(status)) return 'toReceive';
  return 'other';
}

/** The amounts of a list of charges, in reais, as the server computes them. */
export function chargeAmounts(charges: { Status: string; Value: number }[]) {
  const sum = (group: ChargeGroup) =>
    Math.round(charges.filter((c) => chargeGroup(c.Status) === group).reduce((total, c) => total + c.Value * 100, 0)) /
    100;
  return { received: sum('received'), toReceive: sum('toReceive') };
}

const CHARGE_STATUS_LABELS: Record<string, string> = {
  notSend: 'Ainda não enviada',
  pendingBoleto: 'Boleto em aberto',
  pendingPix: 'Pix em aberto',
  captured: 'Paga',
  payExternal: 'Paga fora do sistema',
  payedBoleto: 'Boleto pago',
  lessValueBoleto: 'Boleto pago com valor menor',
  moreValueBoleto: 'Boleto pago com valor maior',
  paidDuplicityBoleto: 'Boleto pago em duplicidade',
  payedPix: 'Pix pago',
  authorized: 'Autorizada',
  denied: 'Negada pela operadora',
  reversed: 'Estornada',
  chargeback: 'Chargeback',
  cancel: 'Cancelada manualmente',
  cancelByContract: 'Cancelada com a cobrança',
  free: 'Isenta',
  notCompensated: 'Baixa por decurso de prazo',
  unavailablePix: 'Pix indisponível',
};

export const chargeStatusLabel = (code: string) => CHARGE_STATUS_LABELS[code] ?? code;

/** The boleto PDF is offered only while the boleto is open (spec 02 §2). */
export const offersBoletoPdf = (status: string) => status === 'pendingBoleto';

/** Pix is offered for an open boleto or an open Pix (spec 02 §2). */
export const offersPix = (status: string) => status === 'pendingBoleto' || status === 'pendingPix';
