import { lazy } from 'react';
import type { RoleType } from '@/api/types';
import type { MenuItem, MenuRoute } from '@/components/layout/menu';

// Screens load on demand; each lives in its own feature folder.
const HomePage = lazy(() => import('@/features/home/HomePage'));
const AgendaPage = lazy(() => import('@/features/agenda/components/AgendaPage'));
const ClientListPage = lazy(() => import('@/features/clients/ClientListPage'));
const ClientFormPage = lazy(() => import('@/features/clients/ClientFormPage'));
const ProfessionalListPage = lazy(() => import('@/features/professionals/ProfessionalListPage'));
const ProfessionalFormPage = lazy(() => import('@/features/professionals/ProfessionalFormPage'));
const CompanyListPage = lazy(() => import('@/features/companies/CompanyListPage'));
const CompanyFormPage = lazy(() => import('@/features/companies/CompanyFormPage'));
const PlanListPage = lazy(() => import('@/features/plans/PlanListPage'));
const PlanFormPage = lazy(() => import('@/features/plans/PlanFormPage'));
const SubscriberListPage = lazy(() => import('@/features/subscribers/SubscriberListPage'));
const SubscriberFormPage = lazy(() => import('@/features/subscribers/SubscriberFormPage'));
const HolidayListPage = lazy(() => import('@/features/holidays/HolidayListPage'));
const HolidayFormPage = lazy(() => import('@/features/holidays/HolidayFormPage'));
// Issue 41: comandas and the products they sell.
const ComandaListPage = lazy(() => import('@/features/comandas/ComandaListPage'));
const ComandaPage = lazy(() => import('@/features/comandas/ComandaPage'));
const ProductListPage = lazy(() => import('@/features/products/ProductListPage'));
const ProductFormPage = lazy(() => import('@/features/products/ProductFormPage'));
// Issue 43: a unit's stock and a product's movements (ADMIN and ATTENDANT, as the server allows).
const StockPage = lazy(() => import('@/features/stock/StockPage'));
const StockMovementsPage = lazy(() => import('@/features/stock/StockMovementsPage'));
const ProfilePage = lazy(() => import('@/features/profile/ProfilePage'));
// Issue 41: the caixa and its report (ADMIN and ATTENDANT, as the server allows).
const CaixaPage = lazy(() => import('@/features/caixa/CaixaPage'));
const CaixaReportPage = lazy(() => import('@/features/caixa/CaixaReportPage'));
// Issue 42: a professional's commission statement (ADMIN any of the unit's, everyone else their own).
const CommissionPage = lazy(() => import('@/features/commissions/CommissionPage'));
// Issue 44: the WhatsApp reminders of a day (ADMIN only, as the server allows).
const MessagesPage = lazy(() => import('@/features/messages/MessagesPage'));

/** Route areas a role may reach (spec 01 §6). */
export type Area =
  | 'home'
  | 'scheduling'
  | 'caixa'
  | 'commission'
  | 'messages'
  | 'client'
  | 'professional'
  | 'company'
  | 'subscription-detail'
  | 'subscription-user'
  | 'holiday'
  | 'comanda'
  | 'product'
  | 'stock'
  | 'profile';

interface AreaItem extends MenuItem {
  area?: Area;
  children?: AreaItem[];
}

const shown = (label: string, icon: MenuItem['icon'], area: Area, route: MenuRoute): AreaItem => ({
  label,
  icon,
  area,
  route,
  showInMenu: true,
});

const hidden = (label: string, area: Area, route: MenuRoute): AreaItem => ({
  label,
  area,
  route,
  showInMenu: false,
});

const group = (sessionTitle: string, children: AreaItem[]): AreaItem => ({
  label: sessionTitle,
  sessionTitle,
  showInMenu: true,
  children,
});

/** The full menu (ADMIN); every other role gets a filtered copy. */
const fullMenu: AreaItem[] = [
  shown('Início', 'home', 'home', { path: '', slug: 'home', isIndex: true, component: HomePage }),
  group('Atendimento', [
    shown('Agenda', 'calendar', 'scheduling', { path: 'scheduling', slug: 'scheduling', component: AgendaPage }),
    shown('Caixa', 'list', 'caixa', { path: 'caixa', slug: 'caixa', component: CaixaPage }),
    hidden('Relatório do caixa', 'caixa', { path: 'caixa/:idCaixa', slug: 'caixa-report', component: CaixaReportPage }),
    shown('Comissões', 'card', 'commission', { path: 'commission', slug: 'commission', component: CommissionPage }),
    shown('Mensagens', 'whatsapp', 'messages', { path: 'messages', slug: 'messages', component: MessagesPage }),
  ]),
  group('Cadastros', [
    shown('Clientes', 'people', 'client', { path: 'client', slug: 'client', component: ClientListPage }),
    hidden('Novo cliente', 'client', { path: 'client/new', slug: 'client-new', component: ClientFormPage }),
    hidden('Cliente', 'client', { path: 'client/:idClient', slug: 'client-form', component: ClientFormPage }),
    shown('Profissionais', 'scissors', 'professional', {
      path: 'professional',
      slug: 'professional',
      component: ProfessionalListPage,
    }),
    hidden('Novo profissional', 'professional', {
      path: 'professional/new',
      slug: 'professional-new',
      component: ProfessionalFormPage,
    }),
    hidden('Profissional', 'professional', {
      path: 'professional/:idProfessional',
      slug: 'professional-form',
      component: ProfessionalFormPage,
    }),
    shown('Empresas', 'business', 'company', { path: 'company', slug: 'company', component: CompanyListPage }),
    hidden('Nova empresa', 'company', { path: 'company/new', slug: 'company-new', component: CompanyFormPage }),
    hidden('Empresa', 'company', { path: 'company/:idCompany', slug: 'company-form', component: CompanyFormPage }),
    shown('Feriados', 'flag', 'holiday', { path: 'holiday', slug: 'holiday', component: HolidayListPage }),
    hidden('Novo feriado', 'holiday', { path: 'holiday/new', slug: 'holiday-new', component: HolidayFormPage }),
    hidden('Feriado', 'holiday', { path: 'holiday/:idHoliday', slug: 'holiday-form', component: HolidayFormPage }),
    // Issue 41: every role reads comandas (a barber, those with a line or tip of theirs) and products.
    shown('Comandas', 'receipt', 'comanda', { path: 'comanda', slug: 'comanda', component: ComandaListPage }),
    hidden('Comanda', 'comanda', { path: 'comanda/:idComanda', slug: 'comanda-detail', component: ComandaPage }),
    shown('Produtos', 'sell', 'product', { path: 'product', slug: 'product', component: ProductListPage }),
    hidden('Novo produto', 'product', { path: 'product/new', slug: 'product-new', component: ProductFormPage }),
    hidden('Produto', 'product', { path: 'product/:idProduct', slug: 'product-form', component: ProductFormPage }),
    shown('Estoque', 'list', 'stock', { path: 'stock', slug: 'stock', component: StockPage }),
    hidden('Movimentações do produto', 'stock', { path: 'stock/:idProduct', slug: 'stock-movements', component: StockMovementsPage }),
  ]),
  group('Clube de assinatura', [
    shown('Planos', 'card', 'subscription-detail', {
      path: 'subscription-detail-list',
      slug: 'subscription-detail-list',
      component: PlanListPage,
    }),
    hidden('Plano', 'subscription-detail', {
      path: 'subscription-detail-form/:subscriptionDetailId',
      slug: 'subscription-detail-form',
      component: PlanFormPage,
    }),
    shown('Assinantes', 'verified', 'subscription-user', {
      path: 'subscription-user-detail-list',
      slug: 'subscription-user-detail-list',
      component: SubscriberListPage,
    }),
    hidden('Assinante', 'subscription-user', {
      path: 'subscription-user-detail-form/:idSubscriptionUser',
      slug: 'subscription-user-detail-form',
      component: SubscriberFormPage,
    }),
  ]),
  // Reached through 'Meu Perfil' at the bottom of the menu.
  hidden('Meu Perfil', 'profile', { path: 'profile', slug: 'profile', component: ProfilePage }),
];

const ALL_AREAS: Area[] = [
  'home',
  'scheduling',
  'caixa',
  'commission',
  'messages',
  'client',
  'professional',
  'company',
  'subscription-detail',
  'subscription-user',
  'holiday',
  'comanda',
  'product',
  'stock',
  'profile',
];

/** The owner's alone: the messages' calls answer ADMIN only (issue 44). */
const ADMIN_ONLY: Area[] = ['messages'];

/** Every area but the owner's own, the base of the roles that see most of the app. */
const STAFF_AREAS = ALL_AREAS.filter((area) => !ADMIN_ONLY.includes(area));

export const areasByRole: Record<RoleType, Area[]> = {
  ADMIN: ALL_AREAS,
  // The caixa's and the stock's calls answer ADMIN and ATTENDANT only.
  DEFAULT: STAFF_AREAS.filter((area) => area !== 'caixa' && area !== 'stock'),
  // Commissions are the owner's and each professional's own, not the front desk's (issue 42).
  ATTENDANT: STAFF_AREAS.filter((area) => area !== 'professional' && area !== 'commission'),
  BARBER1: ['scheduling', 'commission', 'client', 'comanda', 'product', 'profile'],
  BARBER2: ['scheduling', 'commission', 'client', 'comanda', 'product', 'profile'],
  BARBER_LEADE: ['scheduling', 'commission', 'client', 'holiday', 'subscription-user', 'comanda', 'product', 'profile'],
};

function filterMenu(items: AreaItem[], allowed: Set<Area>): MenuItem[] {
  return items.flatMap((item): MenuItem[] => {
    const { area, children, ...rest } = item;
    if (children) {
      const kept = filterMenu(children, allowed);
      return kept.length ? [{ ...rest, children: kept }] : [];
    }
    return area && allowed.has(area) ? [rest] : [];
  });
}

/** The menu (and so the routes) of a role; no role means the default set. */
export function menuForRole(role: RoleType | null | undefined): MenuItem[] {
  const areas = areasByRole[role ?? 'DEFAULT'] ?? areasByRole.DEFAULT;
  return filterMenu(fullMenu, new Set(areas));
}
