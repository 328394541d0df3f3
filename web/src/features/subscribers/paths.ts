// Routes and role rules of the subscribers screens (spec 02 §2, §6).
import { contractStatusLabel } from '@/lib/club';

export const SUBSCRIBERS_PATH = '/dashboard/subscription-user-detail-list';
export const subscriberPath = (id: number) => `/dashboard/subscription-user-detail-form/${id}`;
export const clientPath = (id: number) => `/dashboard/client/${id}`;
export const planPath = (id: number) => `/dashboard/subscription-detail-form/${id}`;

/** Roles whose menu has the plans (spec 02 §6: BARBER_LEADE reaches subscribers, not plans). */
export const reachesPlans = (role: string | null | undefined) =>
  role === 'ADMIN' || role === 'DEFAULT' || role === 'ATTENDANT';

/** Only ADMIN cancels a subscription (spec 02 §6) and travels in time (issue 13). */
export const isAdmin = (role: string | null | undefined) => role === 'ADMIN';

/**
 * The provider's page of a subscription. Assumption: GalaxPay's dashboard shows a
 * subscription at /subscriptions/{GalaxPayId}; the spec only says 'view in the provider'.
 */
export const providerSubscriptionUrl = (galaxPayId: number | string) =>
  `https://app.galaxpay.com.br/subscriptions/${galaxPayId}`;

/** The prefilled WhatsApp charge reminder (spec 02 §2 leaves its words open). */
export const reminderMessage = (name: string, planName: string) =>
  `Olá, ${name.trim().split(/\s+/)[0]}! Passando para lembrar que o pagamento da sua assinatura do plano ` +
  `${planName} está pendente. Se já pagou, desconsidere esta mensagem. Qualquer dúvida, estamos à disposição.`;

/** Class of a contract status label. */
export const contractStatusClass = (code: string | null | undefined) =>
  code === 'ACTIVE' ? 'status-active' : code === 'CANCELED' ? 'status-inactive' : 'status-pending-payment';

export { contractStatusLabel };
