import '../i18n/copy-texts';
import { Flex, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FollowersPanel } from '../features/copy-trading/FollowersPanel';
import { FollowingList } from '../features/copy-trading/FollowingList';
import { PageHeading } from '../shared/ui/PageHeading';

type CopyTab = 'mine' | 'followers';

/** /my/copy-trading: copy management with the Mine and Followers tabs (document 2 §4). */
export function CopyManagementPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: CopyTab = params.get('tab') === 'followers' ? 'followers' : 'mine';
  return (
    <Flex vertical gap={16} data-testid="copy-management">
      <PageHeading title={t('copy.page.title')} subtitle={t('copy.page.subtitle')} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'followers' ? { tab: key } : {}, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'mine', label: t('copy.page.tabs.mine'), children: <FollowingList /> },
          {
            key: 'followers',
            label: <span data-testid="copy-tab-followers">{t('copy.page.tabs.followers')}</span>,
            children: <FollowersPanel />,
          },
        ]}
      />
    </Flex>
  );
}
