import {
  AppstoreOutlined,
  BankOutlined,
  HomeOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { NavKey } from './nav-items';

const ICONS: Partial<Record<NavKey, ReactNode>> = {
  home: <HomeOutlined />,
  strategySquare: <AppstoreOutlined />,
  managementCenter: <BankOutlined />,
  helpCenter: <QuestionCircleOutlined />,
};

/** The icon of a top-navigation entry (loaded only when the compact navigation shows icons). */
export default function TopNavIcon({ navKey }: { navKey: NavKey }) {
  return <>{ICONS[navKey]}</>;
}
