import { describe, expect, it } from 'vitest';
import type { RoleType } from '@/api/types';
import { menuRoutes, visibleLeaves, type MenuItem } from '@/components/layout/menu';
import { menuForRole } from './menus';

const slugs = (menu: MenuItem[]) => visibleLeaves(menu).map((item) => item.route!.slug);
const paths = (menu: MenuItem[]) => menuRoutes(menu).map((route) => route.path);

const ADMIN_SLUGS = [
  'home',
  'scheduling',
  'caixa',
  'commission',
  'messages',
  'client',
  'professional',
  'company',
  'holiday',
  'comanda',
  'product',
  'stock',
  'subscription-detail-list',
  'subscription-user-detail-list',
];

describe('menu by role', () => {
  it('gives ADMIN every route', () => {
    const menu = menuForRole('ADMIN');
    expect(slugs(menu)).toEqual(ADMIN_SLUGS);
    expect(paths(menu)).toEqual([
      '',
      'scheduling',
      'caixa',
      'caixa/:idCaixa',
      'commission',
      'messages',
      'client',
      'client/new',
      'client/:idClient',
      'professional',
      'professional/new',
      'professional/:idProfessional',
      'company',
      'company/new',
      'company/:idCompany',
      'holiday',
      'holiday/new',
      'holiday/:idHoliday',
      'comanda',
      'comanda/:idComanda',
      'product',
      'product/new',
      'product/:idProduct',
      'stock',
      'stock/:idProduct',
      'subscription-detail-list',
      'subscription-detail-form/:subscriptionDetailId',
      'subscription-user-detail-list',
      'subscription-user-detail-form/:idSubscriptionUser',
      'profile',
    ]);
  });

  it('gives DEFAULT and a missing role the same as ADMIN but the caixa, the stock and the messages', () => {
    const menu = menuForRole('DEFAULT');
    expect(slugs(menu)).toEqual(ADMIN_SLUGS.filter((slug) => slug !== 'caixa' && slug !== 'stock' && slug !== 'messages'));
    expect(paths(menu).filter((path) => path.startsWith('caixa') || path.startsWith('stock'))).toEqual([]);
    expect(menuForRole(null)).toEqual(menu);
  });

  it('gives the caixa and its report to ADMIN and ATTENDANT only (the calls answer them alone)', () => {
    const roles: RoleType[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT'];
    const reach = (role: RoleType) => paths(menuForRole(role)).filter((path) => path.startsWith('caixa'));
    expect(roles.filter((role) => slugs(menuForRole(role)).includes('caixa'))).toEqual(['ADMIN', 'ATTENDANT']);
    expect(reach('ATTENDANT')).toEqual(['caixa', 'caixa/:idCaixa']);
    expect(reach('BARBER_LEADE')).toEqual([]);
  });

  it('gives the stock and its movements to ADMIN and ATTENDANT only (issue 43)', () => {
    const roles: RoleType[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT'];
    expect(roles.filter((role) => slugs(menuForRole(role)).includes('stock'))).toEqual(['ADMIN', 'ATTENDANT']);
    expect(paths(menuForRole('ATTENDANT')).filter((path) => path.startsWith('stock'))).toEqual(['stock', 'stock/:idProduct']);
  });

  it('gives the messages to ADMIN only, as the server does (issue 44)', () => {
    const roles: RoleType[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT'];
    expect(roles.filter((role) => slugs(menuForRole(role)).includes('messages'))).toEqual(['ADMIN']);
    expect(roles.filter((role) => paths(menuForRole(role)).includes('messages'))).toEqual(['ADMIN']);
    const entry = visibleLeaves(menuForRole('ADMIN')).find((item) => item.route?.slug === 'messages');
    expect(entry?.label).toBe('Mensagens');
    expect(entry?.icon).toBe('whatsapp');
  });

  it('gives ATTENDANT everything but the professional routes, the commissions and the messages', () => {
    const menu = menuForRole('ATTENDANT');
    expect(slugs(menu)).toEqual(
      ADMIN_SLUGS.filter((slug) => slug !== 'professional' && slug !== 'commission' && slug !== 'messages'),
    );
    expect(paths(menu).filter((path) => path.startsWith('professional'))).toEqual([]);
    expect(paths(menu)).not.toContain('commission');
  });

  it('gives the commissions to every role but ATTENDANT, as the server does (issue 42)', () => {
    const roles: RoleType[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT'];
    expect(roles.filter((role) => slugs(menuForRole(role)).includes('commission'))).toEqual([
      'ADMIN',
      'BARBER_LEADE',
      'BARBER1',
      'BARBER2',
      'DEFAULT',
    ]);
    expect(menuRoutes(menuForRole('BARBER1')).find((route) => route.slug === 'commission')?.path).toBe('commission');
  });

  it.each<RoleType>(['BARBER1', 'BARBER2'])('gives %s only scheduling, commissions, client, comandas, products and profile', (role) => {
    const menu = menuForRole(role);
    expect(slugs(menu)).toEqual(['scheduling', 'commission', 'client', 'comanda', 'product']);
    expect(paths(menu)).toEqual([
      'scheduling',
      'commission',
      'client',
      'client/new',
      'client/:idClient',
      'comanda',
      'comanda/:idComanda',
      'product',
      'product/new',
      'product/:idProduct',
      'profile',
    ]);
  });

  it('gives BARBER_LEADE scheduling, commissions, client, holiday, comandas, products, subscribers and profile', () => {
    const menu = menuForRole('BARBER_LEADE');
    expect(slugs(menu)).toEqual([
      'scheduling',
      'commission',
      'client',
      'holiday',
      'comanda',
      'product',
      'subscription-user-detail-list',
    ]);
    expect(paths(menu)).toContain('subscription-user-detail-form/:idSubscriptionUser');
    expect(paths(menu)).toContain('profile');
    expect(paths(menu)).not.toContain('subscription-detail-list');
  });

  it('keeps profile out of the menu items but reachable as a route', () => {
    const menu = menuForRole('ADMIN');
    expect(slugs(menu)).not.toContain('profile');
    expect(menuRoutes(menu).find((route) => route.slug === 'profile')?.path).toBe('profile');
  });

  it('drops groups that end up empty', () => {
    const titles = menuForRole('BARBER1')
      .filter((item) => item.showInMenu)
      .map((item) => item.sessionTitle ?? item.label);
    expect(titles).toEqual(['Atendimento', 'Cadastros']);
  });
});
