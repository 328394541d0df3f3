// The audits in words (issue 14 item 4): who made each change (name and role), when (on the
// units' clock, like every date of the app), what happened, and each field from → to, in pt-BR.
import { chargeStatusLabel } from '@/lib/club';
import { formatDateBR, shortTime, WEEKDAY_NAMES } from '@/lib/dates';
import { formatCnpj, formatCpf, formatPhone, maskCep, onlyDigits } from '@/lib/masks';
import { formatBRL } from '@/lib/money';
import { PALETTE, PROFESSIONAL_STATUS_LABEL } from '@/features/professionals/palette';
import { formatInstant } from '@/features/subscribers/timeline';
import type { HistoryChange, HistoryEntry, HistorySubject } from './types';

/** What an empty value shows. */
export const EMPTY = '—';

/** The roles as staff read them (the server's `type-profile` descriptions). */
export const ROLE_LABELS: Record<string, string> = {
  ADMIN: 'Administrador',
  ATTENDANT: 'Atendente',
  BARBER_LEADE: 'Barbeiro líder',
  BARBER1: 'Barbeiro 1',
  BARBER2: 'Barbeiro 2',
  DEFAULT: 'Padrão',
};

/** What the system did on its own (no role): the demo load, a provider's webhook... */
export const SYSTEM_LABEL = 'Sistema';

export const roleLabel = (role: string | null | undefined): string =>
  role ? (ROLE_LABELS[role] ?? humanize(role)) : SYSTEM_LABEL;

/** Names of what a history points at by id (unknown ids show as 'N.º 12'). */
export interface HistoryNames {
  companies?: Record<number, string>;
  professionals?: Record<number, string>;
  clients?: Record<number, string>;
  /** Catalogue services. */
  services?: Record<number, string>;
}

/** One changed field in words. `from` is null when the entry creates the record. */
export interface ChangeLine {
  field: string;
  label: string;
  from: string | null;
  to: string;
}

export interface DescribedEntry {
  key: number;
  /** RFC 3339, for the time element. */
  at: string;
  /** 'dd/mm/aaaa HH:MM' on the units' clock. */
  when: string;
  who: string;
  role: string;
  title: string;
  /** Why, when the action recorded it (a sweep of online bookings). */
  reason: string | null;
  /** A registration or booking: its fields are values, not changes. */
  created: boolean;
  changes: ChangeLine[];
}

// ---------------------------------------------------------------------------
// Events

const EVENT_TITLES: Record<string, string> = {
  AppointmentBooked: 'Agendamento criado',
  AppointmentChanged: 'Agendamento alterado',
  AppointmentConfirmed: 'Confirmado',
  ConfirmationCleared: 'Confirmação desfeita: o horário mudou',
  AppointmentCancelled: 'Cancelado',
  ClientRegistered: 'Cliente cadastrado',
  ClientUpdated: 'Dados do cliente alterados',
  // Issue 45: a client added at the desk without a CPF is given it once.
  CpfAdded: 'CPF informado',
  SocialLoginLinked: 'Login social vinculado',
  SocialLoginsRemoved: 'Logins sociais removidos',
  ClientConfirmed: 'Cadastro confirmado',
  ProfessionalRegistered: 'Profissional cadastrado',
  PersonalDataChanged: 'Dados pessoais alterados',
  EmploymentChanged: 'Dados profissionais alterados',
  WorkingDaySet: 'Horário de trabalho alterado',
  ServiceAdded: 'Serviço adicionado',
  ServiceChanged: 'Serviço alterado',
  CompanyRegistered: 'Empresa cadastrada',
  CompanyUpdated: 'Dados da empresa alterados',
  CompanyDaySet: 'Horário de trabalho alterado',
  GallerySaved: 'Galeria de fotos alterada',
  // Issue 41: the appointment's attendance and the comanda.
  ClientArrived: 'Cliente chegou',
  NoShowMarked: 'Não compareceu',
  NoShowUndone: "'Não compareceu' desfeito",
  ComandaOpened: 'Comanda aberta',
  ItemAdded: 'Item adicionado',
  ItemRemoved: 'Item removido',
  DiscountSet: 'Desconto alterado',
  TipAdded: 'Gorjeta adicionada',
  TipRemoved: 'Gorjeta removida',
  PaymentTaken: 'Pagamento recebido',
  PaymentRefunded: 'Estorno',
  ComandaClosed: 'Comanda fechada',
  ComandaReopened: 'Comanda reaberta',
  ComandaCanceled: 'Comanda cancelada',
  // Pix at the counter: the charge, and the provider's word on it (titled with its value).
  PixCharged: 'Cobrança Pix',
  PixPaid: 'Pix recebido',
  PixFailed: 'Pix expirado ou recusado',
  PixToRefund: 'Pix pago após o cancelamento: devolver',
  // Issue 42: a professional's commission rates.
  CommissionRatesSet: 'Comissões alteradas',
};

/**
 * Events that add a record (or a line, a tip, a payment, a Pix charge), and the provider's word
 * on a Pix (its status, not a change of another charge's): their fields are values, not changes.
 */
const CREATIONS = new Set([
  'AppointmentBooked',
  'ClientRegistered',
  'ProfessionalRegistered',
  'CompanyRegistered',
  'ServiceAdded',
  'ComandaOpened',
  'ItemAdded',
  'TipAdded',
  'PaymentTaken',
  'PixCharged',
  'PixFailed',
]);

/** A move of an appointment names what moved, when only one thing did. */
const APPOINTMENT_GROUPS: Record<string, string> = {
  date: 'time',
  start: 'time',
  professional_id: 'professional',
  company_id: 'professional',
  client_id: 'client',
  services: 'services',
  observation: 'observation',
};
const APPOINTMENT_TITLES: Record<string, string> = {
  time: 'Horário alterado',
  professional: 'Profissional alterado',
  client: 'Cliente alterado',
  services: 'Serviços alterados',
  observation: 'Observações alteradas',
};

const EMPLOYMENT_TITLES: Record<string, string> = {
  role: 'Perfil alterado',
  color: 'Cor alterada',
  status: 'Status alterado',
  memberships: 'Empresas alteradas',
};

/** 'ClientArchived' → 'Client archived': a readable fallback for an event this screen does not know. */
export function humanize(code: string): string {
  const words = code
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : code;
}

function appointmentChangeTitle(fields: string[]): string {
  const groups = new Set(fields.map((field) => APPOINTMENT_GROUPS[field]).filter(Boolean));
  // The end follows the start or the services; alone, it is still a change of time.
  if (groups.size === 0 && fields.includes('end')) groups.add('time');
  return groups.size === 1 ? APPOINTMENT_TITLES[[...groups][0]] : EVENT_TITLES.AppointmentChanged;
}

function employmentTitle(fields: string[]): string {
  const known = fields.filter((field) => EMPLOYMENT_TITLES[field]);
  return known.length === 1 && fields.length === 1 ? EMPLOYMENT_TITLES[known[0]] : EVENT_TITLES.EmploymentChanged;
}

/** The title of an event: its pt-BR name, a readable fallback for unknown ones. */
export function eventTitle(event: string, fields: string[] = []): string {
  if (event === 'AppointmentChanged') return appointmentChangeTitle(fields);
  if (event === 'EmploymentChanged') return employmentTitle(fields);
  return EVENT_TITLES[event] ?? humanize(event);
}

// ---------------------------------------------------------------------------
// Fields

const FIELD_LABELS: Record<string, string> = {
  name: 'Nome',
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'E-mail',
  phone: 'Celular',
  whatsapp: 'WhatsApp',
  birth_date: 'Data de nascimento',
  status: 'Status',
  active: 'Status',
  'address.zip_code': 'CEP',
  'address.street': 'Rua',
  'address.number': 'Número',
  'address.complement': 'Complemento',
  'address.district': 'Bairro',
  'address.city': 'Cidade',
  'address.state': 'UF',
  color: 'Cor',
  role: 'Perfil',
  memberships: 'Empresas',
  facebook: 'Facebook',
  instagram: 'Instagram',
  observation: 'Observações',
  time_zone: 'Fuso horário',
  images: 'Galeria de fotos',
  client_id: 'Cliente',
  professional_id: 'Profissional',
  company_id: 'Empresa',
  date: 'Data',
  start: 'Início',
  end: 'Término',
  services: 'Serviços',
  times_type: 'Horários',
  periods: 'Períodos',
  period: 'Horário',
  'period.start': 'Abertura',
  'period.end': 'Fechamento',
  service_id: 'Serviço',
  minutes: 'Tempo',
  cents: 'Valor',
  combo: 'Combo',
  provider: 'Rede social',
  online: 'Online',
  newcomer: 'Cliente novo (online)',
  // Issue 45: 'Agendar mesmo assim', the desk's choice recorded in the booking.
  client_overlap: 'Cliente em outro agendamento no mesmo horário',
  // Issue 45: a regulars' series ('Repetir').
  'series.id': 'Série',
  'series.index': 'Ocorrência na série',
  'series.count': 'Ocorrências da série',
  'series.every_weeks': 'Repetição',
  // The comanda (issue 41).
  appointment_id: 'Agendamento',
  items: 'Itens',
  item_id: 'Item',
  kind: 'Tipo',
  description: 'Descrição',
  quantity: 'Quantidade',
  unit_cents: 'Valor unitário',
  discount: 'Desconto',
  'discount.Cents': 'Desconto',
  'discount.BasisPoints': 'Desconto',
  service_points: 'Comissão em serviços',
  product_points: 'Comissão em produtos',
  card_fee_shared: 'Divide a taxa da maquininha',
  tip_id: 'Gorjeta',
  payment_id: 'Pagamento',
  method: 'Forma de pagamento',
  cash_received_cents: 'Valor recebido',
  installments: 'Parcelas',
  brand: 'Bandeira',
  authorization_code: 'Código de autorização',
  nsu: 'NSU',
  caixa_id: 'Caixa',
  subtotal_cents: 'Subtotal',
  discount_cents: 'Desconto',
  total_cents: 'Total',
  tips_cents: 'Gorjetas',
  reason: 'Motivo',
};

/** The unit form names some fields its own way. */
const SUBJECT_LABELS: Partial<Record<HistorySubject, Record<string, string>>> = {
  company: { phone: 'Telefone', observation: 'Observação' },
  comanda: { company_id: 'Unidade' },
};

/** The order fields read in, as on the forms; others follow in the server's order. */
const FIELD_ORDER = [
  'client_id',
  'date',
  'start',
  'end',
  'professional_id',
  'services',
  'observation',
  'times_type',
  'company_id',
  'name',
  'cpf',
  'cnpj',
  'email',
  'phone',
  'whatsapp',
  'birth_date',
  'status',
  'role',
  'color',
  'memberships',
  'service_id',
  'minutes',
  'cents',
  'combo',
  'active',
  'address.zip_code',
  'address.street',
  'address.number',
  'address.complement',
  'address.district',
  'address.city',
  'address.state',
  'facebook',
  'instagram',
  'time_zone',
  'periods',
  'period',
  'period.start',
  'period.end',
  'appointment_id',
  'items',
  'kind',
  'description',
  'quantity',
  'unit_cents',
  'discount',
  'discount.Cents',
  'discount.BasisPoints',
  'method',
  'cash_received_cents',
  'installments',
  'brand',
  'authorization_code',
  'nsu',
  'subtotal_cents',
  'discount_cents',
  'total_cents',
  'tips_cents',
];

const rank = (field: string) => {
  const { n, base } = parseField(field);
  const index = FIELD_ORDER.indexOf(base);
  return n * 100 + (index === -1 ? FIELD_ORDER.length : index);
};

/**
 * Internal ids that say nothing the other fields do not, what a comanda's close records for
 * commissions and stock (its lines and tips by id, the business instant), shown by its totals,
 * and what a Pix charge holds for the client's phone (the code, its QR image and page).
 */
const HIDDEN = new Set([
  'membership_id',
  'ref_id',
  'item_id',
  'tip_id',
  'payment_id',
  'caixa_id',
  'at',
  'lines',
  'tips',
  'galax_pay_id',
  'copy_paste',
  'image',
  'page',
]);

/** What a field path is scoped by: a weekday, a professional's offered service or a comanda's line, tip or payment. */
type FieldScope = 'weekDay' | 'item' | 'tip' | 'payment';

/** `weekDay 2.periods` → { scope: weekDay, n: 2, base: periods }; `payment 1.cents` likewise. */
interface FieldPath {
  scope: FieldScope | null;
  n: number;
  base: string;
}

export function parseField(field: string): FieldPath {
  const match = /^(weekDay|item|tip|payment) (\d+)\.(.+)$/.exec(field);
  if (!match) return { scope: null, n: 0, base: field };
  return { scope: match[1] as FieldScope, n: Number(match[2]), base: match[3] };
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The pt-BR label of a field of a subject's history. */
export function fieldLabel(field: string, subject: HistorySubject): string {
  const { scope, n, base } = parseField(field);
  const label = SUBJECT_LABELS[subject]?.[base] ?? FIELD_LABELS[base] ?? humanize(base);
  if (scope === 'weekDay') {
    const day = capitalize(WEEKDAY_NAMES[n] ?? `Dia ${n}`);
    return base === 'periods' || base === 'period' ? day : `${day}, ${label.toLowerCase()}`;
  }
  return label;
}

// ---------------------------------------------------------------------------
// Values

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2})?$/;

const TIMES_TYPE_LABELS: Record<string, string> = {
  ONLY_AVAILABLES: 'Somente disponíveis',
  ALL_TIMES: 'Todos os horários',
};

/** A comanda's payment methods and line kinds (the comanda screen's words). */
const METHOD_LABELS: Record<string, string> = {
  cash: 'Dinheiro',
  pix: 'Pix',
  credit: 'Cartão de crédito',
  debit: 'Cartão de débito',
  subscription: 'Assinatura',
};
const KIND_LABELS: Record<string, string> = { service: 'Serviço', product: 'Produto' };

/** A Pix charge's status (the comanda page's words); the provider's own codes are the club's. */
const PIX_STATUS_LABELS: Record<string, string> = {
  PENDING: 'Aguardando pagamento',
  PAID: 'Pix recebido',
  FAILED: 'Pix expirado ou recusado',
  TO_REFUND: 'A devolver ao cliente',
};

const brl = (cents: unknown) => (typeof cents === 'number' ? formatBRL(cents / 100) : plain(cents));

/** Basis points as a percentage: 1250 → '12,5%'. */
const percent = (points: unknown) =>
  typeof points === 'number' ? `${(points / 100).toLocaleString('pt-BR', { maximumFractionDigits: 2 })}%` : plain(points);

/** A comanda line: 'Corte de cabelo (2 × R$ 55,00)'. */
const line = (entry: unknown) => {
  const { description, quantity, unit_cents: unit } = record(entry);
  if (typeof description !== 'string') return plain(entry);
  return typeof quantity === 'number' && typeof unit === 'number' ? `${description} (${quantity} × ${brl(unit)})` : description;
};

const isEmpty = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const named = (names: Record<number, string> | undefined, value: unknown) => {
  const id = Number(value);
  return names?.[id] ?? `N.º ${String(value)}`;
};

const list = (value: unknown, item: (entry: unknown) => string) =>
  Array.isArray(value) ? value.map(item).filter((text) => text !== EMPTY).join(', ') || EMPTY : plain(value);

const period = (entry: unknown) => {
  const { start, end } = record(entry);
  return typeof start === 'string' && typeof end === 'string' ? `${shortTime(start)} às ${shortTime(end)}` : plain(entry);
};

/** A value with no field to tell its meaning: booleans Sim/Não, dates dd/mm/aaaa, times HH:MM. */
export function plain(value: unknown): string {
  if (isEmpty(value)) return EMPTY;
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') return value.toLocaleString('pt-BR');
  if (typeof value === 'string') {
    if (ISO_DATE.test(value)) return formatDateBR(value);
    if (TIME.test(value)) return shortTime(value);
    return value;
  }
  if (Array.isArray(value)) return value.length ? value.map(plain).join(', ') : EMPTY;
  const entries = Object.entries(record(value));
  return entries.length ? entries.map(([key, inner]) => `${humanize(key)}: ${plain(inner)}`).join(', ') : EMPTY;
}

/** A field's value in pt-BR. */
export function formatValue(field: string, value: unknown, names: HistoryNames = {}): string {
  const { base } = parseField(field);
  if (base === 'periods' && Array.isArray(value) && value.length === 0) return 'Folga';
  if (isEmpty(value)) return EMPTY;
  switch (base) {
    case 'status':
      if (typeof value === 'number') return PROFESSIONAL_STATUS_LABEL[value] ?? String(value);
      // A Pix charge's, or the provider's word on it ('unavailablePix').
      if (typeof value === 'string') return PIX_STATUS_LABELS[value] ?? chargeStatusLabel(value);
      return typeof value === 'boolean' ? (value ? 'Ativo' : 'Inativo') : plain(value);
    case 'active':
      return typeof value === 'boolean' ? (value ? 'Ativo' : 'Inativo') : plain(value);
    case 'cpf':
      return formatCpf(String(value));
    case 'cnpj':
      return formatCnpj(String(value));
    case 'phone':
      return formatPhone(String(value));
    case 'address.zip_code':
      return onlyDigits(String(value)).length === 8 ? maskCep(String(value)) : String(value);
    case 'role':
      return roleLabel(String(value));
    case 'color': {
      const colour = PALETTE.find((c) => c.hex.toUpperCase() === String(value).toUpperCase());
      return colour ? `${colour.label} (${colour.hex})` : String(value);
    }
    case 'memberships':
      return list(value, (entry) => named(names.companies, record(entry).company_id));
    case 'client_id':
      return named(names.clients, value);
    case 'professional_id':
      return named(names.professionals, value);
    case 'company_id':
      return named(names.companies, value);
    case 'service_id':
      return named(names.services, value);
    case 'services':
      return list(value, (entry) => {
        const { description, minutes, cents } = record(entry);
        const details = [
          typeof minutes === 'number' ? `${minutes} min` : null,
          typeof cents === 'number' ? formatBRL(cents / 100) : null,
        ].filter(Boolean);
        return `${String(description ?? EMPTY)}${details.length ? ` (${details.join(', ')})` : ''}`;
      });
    case 'times_type':
      return TIMES_TYPE_LABELS[String(value)] ?? plain(value);
    case 'periods':
      return list(value, period);
    case 'cents':
    case 'unit_cents':
    case 'cash_received_cents':
    case 'subtotal_cents':
    case 'discount_cents':
    case 'total_cents':
    case 'tips_cents':
    case 'discount.Cents':
      return brl(value);
    case 'discount.BasisPoints':
    case 'service_points':
    case 'product_points':
      return percent(value);
    case 'appointment_id':
    case 'series.id':
      return `N.º ${String(value)}`;
    case 'series.every_weeks':
      return value === 1 ? 'Toda semana' : `A cada ${String(value)} semanas`;
    case 'items':
      return list(value, line);
    case 'kind':
      return KIND_LABELS[String(value)] ?? plain(value);
    case 'method':
      return METHOD_LABELS[String(value)] ?? plain(value);
    case 'minutes':
      return typeof value === 'number' ? `${value} min` : plain(value);
    case 'images':
      return Array.isArray(value) ? `${value.length} ${value.length === 1 ? 'foto' : 'fotos'}` : plain(value);
    case 'provider':
      return humanize(String(value));
    default:
      return plain(value);
  }
}

// ---------------------------------------------------------------------------
// Entries

/** Fields an entry shows: no internal ids, and a service's own id only in its title. */
const shown = (change: HistoryChange) => {
  const { scope, base } = parseField(change.Field);
  return !HIDDEN.has(base) && !(scope === 'item' && (base === 'id' || base === 'service_id'));
};

/**
 * The history in words, newest first. Read oldest first, so that a professional's offered
 * service (`item 7`) is named by the catalogue service it was added with.
 */
export function describeHistory(entries: HistoryEntry[], subject: HistorySubject, names: HistoryNames = {}): DescribedEntry[] {
  const ordered = [...entries].sort((a, b) => a.Sequence - b.Sequence);
  const offered = new Map<number, unknown>();
  // Every field as it stands after each event, as the server compares them: an event lists
  // only what changed, so a comanda's line, tip or payment is named from here.
  const state = new Map<string, unknown>();
  const comanda = comandaMemory();
  const described = ordered.map((entry) => {
    const changes = entry.Changes ?? [];
    let item: number | null = null;
    for (const change of changes) {
      state.set(change.Field, change.To);
      const { scope, n, base } = parseField(change.Field);
      // A comanda's lines are scoped `item N` too: they are named from their own fields.
      if (scope !== 'item' || subject === 'comanda') continue;
      item = n;
      if (base === 'service_id') offered.set(n, change.To);
    }
    const created = CREATIONS.has(entry.Event);
    const lines = changes
      .filter(shown)
      .sort((x, y) => rank(x.Field) - rank(y.Field))
      .map((change) => ({
        field: change.Field,
        label: fieldLabel(change.Field, subject),
        from: created ? null : formatValue(change.Field, change.From, names),
        to: formatValue(change.Field, change.To, names),
      }))
      // A new record lists what it has, not every empty field.
      .filter((line) => !(created && line.to === EMPTY));
    let title = eventTitle(entry.Event, changes.map((change) => parseField(change.Field).base));
    if (item !== null) title = `${title}: ${offered.has(item) ? named(names.services, offered.get(item)) : `N.º ${item}`}`;
    if (subject === 'comanda') title = comandaTitle(entry.Event, title, changes, state, comanda, names);
    // A comanda's reopen, cancel or refund carries its reason in the event itself (a refund's
    // scoped by its payment: `payment 1.reason`).
    const reason =
      entry.Reason ??
      (REASONED.has(entry.Event)
        ? (changes.find((change) => parseField(change.Field).base === 'reason')?.To ?? state.get('reason'))
        : null);
    return {
      key: entry.Sequence,
      at: entry.At,
      when: formatInstant(entry.At),
      who: entry.UserName?.trim() || SYSTEM_LABEL,
      role: roleLabel(entry.Role),
      title,
      reason: typeof reason === 'string' && reason ? `Motivo: ${reason}` : null,
      created,
      changes: lines.filter((line) => parseField(line.field).base !== 'reason'),
    };
  });
  return described.reverse();
}

/** The comanda's events that record a reason. */
const REASONED = new Set(['PaymentRefunded', 'ComandaReopened', 'ComandaCanceled']);

/** What a comanda's event is about: a line, a tip or a payment (a Pix charge is the payment it becomes). */
type ComandaPart = 'item' | 'tip' | 'payment';

const EVENT_PARTS: Record<string, ComandaPart> = {
  ItemAdded: 'item',
  ItemRemoved: 'item',
  TipAdded: 'tip',
  TipRemoved: 'tip',
  PaymentTaken: 'payment',
  PaymentRefunded: 'payment',
  PixCharged: 'payment',
};

/** What a comanda's history remembers from event to event. */
interface ComandaMemory {
  /** The names of the lines, tips and payments added (`item 2` → 'Pomada'), for their removal. */
  known: Map<string, string>;
  /** Those added and not removed yet. */
  live: Set<string>;
  /** A Pix charge's value in cents by the provider's id, for the provider's word on it. */
  pix: Map<string, unknown>;
}

const comandaMemory = (): ComandaMemory => ({ known: new Map(), live: new Set(), pix: new Map() });

/**
 * Which line, tip or payment an event is about. The server scopes their fields by it
 * (`payment 1.cents`); an event that changed none of them (a line removed: its id is the
 * one it was added with) is about the only one still there of its kind, if there is one.
 * An unscoped `item_id` (histories read before the scoping) is taken as it stands.
 */
function partOf(part: ComandaPart, changes: HistoryChange[], state: Map<string, unknown>, memory: ComandaMemory) {
  const field = changes.map((change) => parseField(change.Field)).find((path) => path.scope === part);
  if (field) return { id: String(field.n), scoped: true };
  const flat = state.get(`${part}_id`);
  if (flat !== undefined && flat !== null) return { id: String(flat), scoped: false };
  const live = [...memory.live].filter((key) => key.startsWith(`${part} `));
  return { id: live.length === 1 ? live[0].slice(part.length + 1) : null, scoped: false };
}

/**
 * A comanda's line, tip or payment named in its event's title ('Item removido: Pomada',
 * 'Estorno: Dinheiro R$ 50,00'), from the fields as they stand after the event; a Pix
 * charge and the provider's word on it with its value ('Cobrança Pix de R$ 45,00',
 * 'Pix recebido: R$ 45,00').
 */
function comandaTitle(
  event: string,
  title: string,
  changes: HistoryChange[],
  state: Map<string, unknown>,
  memory: ComandaMemory,
  names: HistoryNames,
): string {
  const part = EVENT_PARTS[event];
  const { id, scoped } = part ? partOf(part, changes, state, memory) : { id: null, scoped: false };
  const key = `${part} ${id}`;
  /** A field of the event's line, tip or payment. */
  const field = (base: string) => state.get(scoped ? `${key}.${base}` : base);
  const added = (name: string) => {
    if (id !== null) {
      memory.known.set(key, name);
      memory.live.add(key);
    }
    return `${title}: ${name}`;
  };
  const removed = () => {
    if (id === null) return title;
    memory.live.delete(key);
    return `${title}: ${memory.known.get(key) ?? `N.º ${id}`}`;
  };
  // The provider's word names the charge by the provider's id (the same as the last, unchanged).
  const charge = () => {
    const galax = changes.find((change) => change.Field === 'galax_pay_id')?.To ?? state.get('galax_pay_id');
    return memory.pix.get(String(galax));
  };
  const value = brl(field('cents'));
  switch (event) {
    case 'ComandaOpened': {
      const items = state.get('items');
      for (const item of Array.isArray(items) ? items : []) {
        const { item_id: itemId, description } = record(item);
        if (typeof description !== 'string') continue;
        memory.known.set(`item ${String(itemId)}`, description);
        memory.live.add(`item ${String(itemId)}`);
      }
      return title;
    }
    case 'ItemAdded':
      return added(plain(field('description')));
    case 'TipAdded':
      return added(`${named(names.professionals, field('professional_id'))} ${value}`);
    case 'PaymentTaken':
      return added(`${formatValue('method', field('method'))} ${value}`);
    case 'ItemRemoved':
    case 'TipRemoved':
    case 'PaymentRefunded':
      return removed();
    case 'PixCharged': {
      // Once paid it is a payment like the others: 'Estorno: Pix R$ 45,00'.
      if (id !== null) memory.known.set(key, `Pix ${value}`);
      const cents = field('cents');
      memory.pix.set(String(field('galax_pay_id')), cents);
      return typeof cents === 'number' ? `${title} de ${value}` : title;
    }
    case 'PixPaid':
    case 'PixFailed': {
      const cents = charge();
      return typeof cents === 'number' ? `${title}: ${brl(cents)}` : title;
    }
    case 'PixToRefund': {
      const cents = charge();
      return typeof cents === 'number' ? `${title} ${brl(cents)}` : title;
    }
    default:
      return title;
  }
}
