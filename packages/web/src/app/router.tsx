import { type ComponentType, lazy, type ReactNode } from 'react';
import { Navigate, type RouteObject, useRoutes } from 'react-router';
import { GuestOnly, RequireAuth } from './guards';
import { AppShell } from './shell/AppShell';

// Route pages load on demand so the first screen only pays for the shell.
// Pages that show messages, notifications or confirm dialogs get antd's App provider with them.
const withFeedbackOf = <P extends object>(page: Promise<ComponentType<P>>) =>
  Promise.all([page, import('./feedback')]).then(([Page, feedback]) => ({
    default: feedback.withFeedback(Page),
  }));

const LoginPage = lazy(() => withFeedbackOf(import('../pages/LoginPage').then((m) => m.LoginPage)));
const ResetPasswordPage = lazy(() =>
  withFeedbackOf(import('../pages/ResetPasswordPage').then((m) => m.ResetPasswordPage)),
);
const RegisterPage = lazy(() =>
  withFeedbackOf(import('../pages/RegisterPage').then((m) => m.RegisterPage)),
);
const DashboardPage = lazy(() =>
  import('../pages/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const SecurityPage = lazy(() =>
  withFeedbackOf(import('../pages/SecurityPage').then((m) => m.SecurityPage)),
);
const AccountOverviewPage = lazy(() =>
  withFeedbackOf(import('../pages/AccountOverviewPage').then((m) => m.AccountOverviewPage)),
);
const ApiManagementPage = lazy(() =>
  withFeedbackOf(import('../pages/ApiManagementPage').then((m) => m.ApiManagementPage)),
);
const HelpCenterPage = lazy(() =>
  withFeedbackOf(import('../pages/HelpCenterPage').then((m) => m.HelpCenterPage)),
);
const DepositPage = lazy(() =>
  withFeedbackOf(import('../pages/DepositPage').then((m) => m.DepositPage)),
);
const WithdrawPage = lazy(() =>
  withFeedbackOf(import('../pages/WithdrawPage').then((m) => m.WithdrawPage)),
);
const ProfileSettingsPage = lazy(() =>
  withFeedbackOf(import('../pages/ProfileSettingsPage').then((m) => m.ProfileSettingsPage)),
);
const VipInvitationPage = lazy(() =>
  withFeedbackOf(import('../pages/VipInvitationPage').then((m) => m.VipInvitationPage)),
);
const StaffPage = lazy(() => withFeedbackOf(import('../pages/StaffPage').then((m) => m.StaffPage)));
const StrategySquarePage = lazy(() =>
  withFeedbackOf(import('../pages/StrategySquarePage').then((m) => m.StrategySquarePage)),
);
const StrategyDetailPage = lazy(() =>
  withFeedbackOf(import('../pages/StrategyDetailPage').then((m) => m.StrategyDetailPage)),
);
const UserProfilePage = lazy(() =>
  withFeedbackOf(import('../pages/UserProfilePage').then((m) => m.UserProfilePage)),
);
const StrategyBuilderPage = lazy(() =>
  withFeedbackOf(import('../pages/StrategyBuilderPage').then((m) => m.StrategyBuilderPage)),
);
const OptimisePage = lazy(() =>
  withFeedbackOf(import('../pages/OptimisePage').then((m) => m.OptimisePage)),
);
const CreateStrategyPage = lazy(() =>
  withFeedbackOf(import('../pages/CreateStrategyPage').then((m) => m.CreateStrategyPage)),
);
const WebhookTradingPage = lazy(() =>
  withFeedbackOf(import('../pages/WebhookTradingPage').then((m) => m.WebhookTradingPage)),
);
const WebhookSignalsPage = lazy(() =>
  withFeedbackOf(import('../pages/WebhookSignalsPage').then((m) => m.WebhookSignalsPage)),
);
const WebhookLogsPage = lazy(() =>
  withFeedbackOf(import('../pages/WebhookLogsPage').then((m) => m.WebhookLogsPage)),
);
const CopyManagementPage = lazy(() =>
  withFeedbackOf(import('../pages/CopyManagementPage').then((m) => m.CopyManagementPage)),
);
const CopyDetailPage = lazy(() =>
  withFeedbackOf(import('../pages/CopyDetailPage').then((m) => m.CopyDetailPage)),
);
const NotFoundPage = lazy(() =>
  import('../pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage })),
);
const MyLayout = lazy(() =>
  import('../features/my/MyLayout').then((m) => ({ default: m.MyLayout })),
);

const auth = (element: ReactNode) => <RequireAuth>{element}</RequireAuth>;

// Both route tables of the spec.
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      {
        path: 'login',
        element: (
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        ),
      },
      {
        path: 'reset-password',
        element: (
          <GuestOnly>
            <ResetPasswordPage />
          </GuestOnly>
        ),
      },
      {
        path: 'register',
        element: (
          <GuestOnly>
            <RegisterPage />
          </GuestOnly>
        ),
      },
      { path: 'dashboard', element: <DashboardPage /> },
      { path: 'strategy-square', element: <StrategySquarePage /> },
      { path: 'help-center', element: <HelpCenterPage /> },
      { path: 'strategy/:id', element: <StrategyDetailPage /> },
      { path: 'user/:userId', element: <UserProfilePage /> },
      { path: 'copy-trading/:id', element: auth(<CopyDetailPage />) },
      { path: 'deposit', element: auth(<DepositPage />) },
      { path: 'withdraw', element: auth(<WithdrawPage />) },
      { path: 'staff', element: auth(<StaffPage />) },
      {
        // The webhook screens keep their own paths but sit in the management centre's layout,
        // whose sidebar lists them on the desktop.
        element: auth(<MyLayout />),
        children: [
          { path: 'webhook-trading', element: <WebhookTradingPage /> },
          { path: 'webhook-trading/signals', element: <WebhookSignalsPage /> },
          { path: 'webhook-trading/logs', element: <WebhookLogsPage /> },
        ],
      },
      {
        path: 'my',
        element: auth(<MyLayout />),
        children: [
          { index: true, element: <Navigate to="/my/account" replace /> },
          { path: 'account', element: <AccountOverviewPage /> },
          { path: 'copy-trading', element: <CopyManagementPage /> },
          { path: 'settings', element: <ProfileSettingsPage /> },
          { path: 'profile', element: <VipInvitationPage /> },
          { path: 'security', element: <SecurityPage /> },
          { path: 'api-management', element: <ApiManagementPage /> },
          { path: 'strategies/create', element: <CreateStrategyPage /> },
          { path: 'strategy-builder', element: <StrategyBuilderPage /> },
          { path: 'optimise', element: <OptimisePage /> },
        ],
      },
      { path: 'account', element: <Navigate to="/my/account" replace /> },
      { path: 'profile', element: <Navigate to="/my/settings" replace /> },
      { path: 'api-management', element: <Navigate to="/my/api-management" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The route table in declarative mode: no route uses loaders or actions, and the data router
 * would add its code to every screen's first load.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
