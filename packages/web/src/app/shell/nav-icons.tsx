import {
  ApiOutlined,
  AppstoreOutlined,
  BankOutlined,
  ControlOutlined,
  CopyOutlined,
  CrownOutlined,
  DownloadOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  HomeOutlined,
  PlusCircleOutlined,
  QuestionCircleOutlined,
  SafetyOutlined,
  SendOutlined,
  TeamOutlined,
  UploadOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { NavKey } from './nav-items';

/** One icon per navigation entry, the same in every menu. */
export const NAV_ICONS: Record<NavKey, ReactNode> = {
  home: <HomeOutlined />,
  strategySquare: <AppstoreOutlined />,
  managementCenter: <BankOutlined />,
  helpCenter: <QuestionCircleOutlined />,
  deposit: <DownloadOutlined />,
  withdraw: <UploadOutlined />,
  exchangeAccounts: <WalletOutlined />,
  copyManagement: <CopyOutlined />,
  apiManagement: <ApiOutlined />,
  accountSecurity: <SafetyOutlined />,
  vip: <CrownOutlined />,
  staffConsole: <ControlOutlined />,
  createStrategy: <PlusCircleOutlined />,
  follow: <TeamOutlined />,
  account: <WalletOutlined />,
  signalTrading: <SendOutlined />,
  signalMonitoring: <FileSearchOutlined />,
  apiOperationLog: <FileTextOutlined />,
};
