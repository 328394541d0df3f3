// Routes of the plans screens (app/menus.tsx wires them).
export const PLANS_PATH = '/dashboard/subscription-detail-list';
export const planPath = (id: number | 'new') => `/dashboard/subscription-detail-form/${id}`;
