import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { NotFound } from '@/components/NotFound';
import CreateNewPasswordPage from '@/features/auth/CreateNewPasswordPage';
import LoginEmailPage from '@/features/auth/LoginEmailPage';
import LoginPage from '@/features/auth/LoginPage';
import SendCodeReceivedPage from '@/features/auth/SendCodeReceivedPage';
import SendRecoveryEmailPage from '@/features/auth/SendRecoveryEmailPage';
import SignUpPasswordPage from '@/features/auth/SignUpPasswordPage';
import SignupPage from '@/features/auth/SignupPage';
import ApiDocsPage from '@/features/apidocs/ApiDocsPage';
import CheckoutPage from '@/features/checkout/CheckoutPage';
import { DashboardShell } from './DashboardShell';
import { PublicOnly, RequireAuth } from './guards';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';

// Issue 18: the public booking pages load on their own, without the staff screens.
const OnlineBookingPage = lazy(() => import('@/features/online-booking/OnlineBookingPage'));
const ManageBookingPage = lazy(() => import('@/features/online-booking/ManageBookingPage'));

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicOnly />,
        children: [
          { path: '/', element: <LoginPage /> },
          { path: '/login-email', element: <LoginEmailPage /> },
          { path: '/signup', element: <SignupPage /> },
          { path: '/sign-up-password', element: <SignUpPasswordPage /> },
          // The other reading of the same step's address (spec 01 §2).
          { path: '/SignupPassword', element: <SignUpPasswordPage /> },
          { path: '/send-recovery-email', element: <SendRecoveryEmailPage /> },
          { path: '/send-code-received', element: <SendCodeReceivedPage /> },
          { path: '/create-new-password', element: <CreateNewPasswordPage /> },
        ],
      },
      {
        element: <RequireAuth />,
        children: [{ path: '/dashboard/*', element: <DashboardShell /> }],
      },
      // The club's checkout link: public, whether or not someone is signed in.
      { path: '/checkout', element: <CheckoutPage /> },
      // Issue 18: a unit's online booking page and a booking's manage link, public.
      { path: '/agendar/:idCompany', element: <Suspense fallback={null}><OnlineBookingPage /></Suspense> },
      { path: '/agendar/:idCompany/reserva/:token', element: <Suspense fallback={null}><ManageBookingPage /></Suspense> },
      // Both APIs' OpenAPI documents, rendered (docs/api.md): public, like the documents.
      { path: '/docs/api', element: <ApiDocsPage /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];
