import '../i18n/square-texts';
import '../i18n/bots-texts';
import '../features/square/square.css';
import { ApiOutlined, CheckCircleFilled, RobotOutlined } from '@ant-design/icons';
import {
  type ExchangeApi,
  SHARE_DESCRIPTION_MAX_LENGTH,
  STRATEGY_NAME_MAX_LENGTH,
} from '@quantsquare/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Flex,
  Form,
  type FormInstance,
  Input,
  Result,
  Skeleton,
  Steps,
  Tag,
  Typography,
  theme,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useExchangeApis } from '../api/accounts';
import { useShareSettings, useShareStatus, useUpdateShareSettings } from '../api/square';
import '../i18n/accounts-texts';
import { BotCreateModal } from '../features/bots/BotCreateModal';
import { squareErrorText } from '../shared/errors/square-errors';
import { accountName } from '../shared/format/account-format';
import { visibleLength } from '../shared/format/square-format';
import { DescriptionEditor } from '../shared/share/DescriptionEditor';
import { descriptionToSave } from '../shared/share/DescriptionEditorModal';
import { ShareFlagFields, type ShareFlags } from '../shared/share/ShareSettingsModal';
import { QueryErrorAlert } from '../shared/ui/QueryState';

type Step = 'account' | 'details' | 'done';
const STEPS: Step[] = ['account', 'details', 'done'];

interface AccountOptionProps {
  account: ExchangeApi;
  isSelected: boolean;
  onSelect: () => void;
}

function AccountOption({ account, isSelected, onSelect }: AccountOptionProps) {
  const { t } = useTranslation();
  const name = accountName(account, t('apis.experienceName'));
  const { token } = theme.useToken();
  const status = useShareStatus(account.id);
  return (
    <button
      type="button"
      onClick={onSelect}
      disabled={!account.is_active}
      aria-pressed={isSelected}
      data-testid="publish-account"
      data-name={account.name}
      style={{
        textAlign: 'start',
        padding: 12,
        borderRadius: token.borderRadiusLG,
        border: `1px solid ${isSelected ? token.colorPrimary : token.colorBorderSecondary}`,
        background: isSelected ? token.colorPrimaryBg : token.colorBgContainer,
        color: token.colorText,
        cursor: account.is_active ? 'pointer' : 'not-allowed',
        opacity: account.is_active ? 1 : 0.5,
        width: '100%',
      }}
    >
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Text strong ellipsis style={{ minWidth: 0 }}>
          {name}
        </Typography.Text>
        {isSelected && <CheckCircleFilled style={{ color: token.colorPrimary }} />}
      </Flex>
      <Flex gap={4} wrap style={{ marginTop: 6 }}>
        <Tag style={{ marginInlineEnd: 0 }}>{account.exchange.toUpperCase()}</Tag>
        {account.is_paper && (
          <Tag color="purple" style={{ marginInlineEnd: 0 }}>
            {t('publish.paper')}
          </Tag>
        )}
        {!account.is_active && (
          <Tag color="error" style={{ marginInlineEnd: 0 }}>
            {t('publish.inactive')}
          </Tag>
        )}
        {status.data?.is_public && (
          <Tag color="success" style={{ marginInlineEnd: 0 }}>
            {t('publish.alreadyPublic')}
          </Tag>
        )}
      </Flex>
    </button>
  );
}

interface DetailsValues extends ShareFlags {
  description: string;
}

/** The first step: which exchange account to publish (or where to add one). */
function AccountStep({
  apis,
  accountId,
  onSelect,
  onNext,
}: {
  apis: ReturnType<typeof useExchangeApis>;
  accountId: number | null;
  onSelect: (id: number) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accounts = apis.data?.results ?? [];
  return (
    <Card size="small" title={t('publish.pickAccount')}>
      {apis.isPending ? (
        <Skeleton active />
      ) : apis.isError ? (
        <Alert type="error" showIcon title={t('publish.accountsFailed')} />
      ) : accounts.length === 0 ? (
        <Empty description={t('publish.noAccounts')}>
          <Button
            type="primary"
            icon={<ApiOutlined />}
            onClick={() => navigate('/my/api-management')}
          >
            {t('publish.addAccount')}
          </Button>
        </Empty>
      ) : (
        <Flex vertical gap={16}>
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))',
              gap: 12,
            }}
          >
            {accounts.map((account) => (
              <AccountOption
                key={account.id}
                account={account}
                isSelected={account.id === accountId}
                onSelect={() => onSelect(account.id)}
              />
            ))}
          </div>
          <Flex justify="end">
            <Button
              type="primary"
              disabled={accountId === null}
              onClick={onNext}
              data-testid="publish-next"
            >
              {t('publish.next')}
            </Button>
          </Flex>
        </Flex>
      )}
    </Card>
  );
}

/** The second step: the strategy's name, description and what it shares. */
function DetailsStep({
  form,
  settings,
  title,
  isPublishing,
  onBack,
  onPublish,
}: {
  form: FormInstance<DetailsValues>;
  settings: ReturnType<typeof useShareSettings>;
  title: string | undefined;
  isPublishing: boolean;
  onBack: () => void;
  onPublish: () => void;
}) {
  const { t } = useTranslation();
  const description = Form.useWatch('description', form) ?? '';
  return (
    <Card size="small" title={title}>
      {settings.isError ? (
        <QueryErrorAlert
          query={settings}
          failedText={t('share.modal.loadFailed')}
          describe={squareErrorText}
          hideRetry
        />
      ) : !settings.data ? (
        <Skeleton active />
      ) : (
        <Form form={form} layout="vertical" requiredMark={false}>
          <Form.Item
            name="name"
            label={t('publish.name')}
            extra={t('publish.nameHint')}
            rules={[{ required: true, whitespace: true, message: t('publish.nameRequired') }]}
          >
            <Input maxLength={STRATEGY_NAME_MAX_LENGTH} data-testid="publish-name" />
          </Form.Item>
          <Form.Item name="description" label={t('publish.description')}>
            <DescriptionField />
          </Form.Item>
          <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
            {t('publish.settings')}
          </Typography.Text>
          <Form.Item name="is_public" hidden valuePropName="checked">
            <input type="checkbox" />
          </Form.Item>
          <ShareFlagFields isPublicShown={false} />
          <Flex justify="space-between" style={{ marginTop: 16 }}>
            <Button onClick={onBack}>{t('publish.back')}</Button>
            <Button
              type="primary"
              loading={isPublishing}
              disabled={visibleLength(description) > SHARE_DESCRIPTION_MAX_LENGTH}
              onClick={onPublish}
              data-testid="publish-submit"
            >
              {t('publish.submit')}
            </Button>
          </Flex>
        </Form>
      )}
    </Card>
  );
}

/** Published: a bot on it, or its page. */
function DoneStep({
  name,
  onCreateBot,
  onOpenStrategy,
}: {
  name: string;
  onCreateBot: () => void;
  onOpenStrategy: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card>
      <Result
        status="success"
        title={t('publish.doneTitle')}
        subTitle={t('publish.doneBody', { name })}
        data-testid="publish-done"
        extra={[
          <Button
            key="bot"
            type="primary"
            icon={<RobotOutlined />}
            onClick={onCreateBot}
            data-testid="publish-create-bot"
          >
            {t('publish.createBot')}
          </Button>,
          <Button key="open" onClick={onOpenStrategy} data-testid="publish-open-strategy">
            {t('publish.openStrategy')}
          </Button>,
        ]}
      />
    </Card>
  );
}

/**
 * /my/strategies/create (the mobile quick action): publishes one of the user's exchange accounts
 * as a strategy — account, name, description, share settings — then offers a bot on it and
 * opens its /strategy/{id}.
 */
export function CreateStrategyPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const apis = useExchangeApis();
  const [step, setStep] = useState<Step>('account');
  const [accountId, setAccountId] = useState<number | null>(null);
  const [isBotOpen, setBotOpen] = useState(false);
  const [publishedName, setPublishedName] = useState('');
  const [form] = Form.useForm<DetailsValues>();
  const settings = useShareSettings(step === 'details' ? accountId : null);
  const update = useUpdateShareSettings();
  const accounts = apis.data?.results ?? [];
  const chosen = accounts.find((a) => a.id === accountId);
  const experienceName = t('apis.experienceName');

  // The form starts from what the account already has (its name, description and flags).
  useEffect(() => {
    const current = settings.data;
    if (step !== 'details' || !current) return;
    form.setFieldsValue({
      // An account never published is named after itself: the experience account's default
      // name is offered in the reader's language.
      name: accountName(
        { name: current.name, is_experience: chosen?.is_experience ?? false },
        experienceName,
      ),
      description: current.description,
      is_public: true,
      accept_copy: current.accept_copy,
      show_trades: current.show_trades,
      show_positions: current.show_positions,
      allow_comments: current.allow_comments,
      show_rules: current.show_rules,
    });
  }, [step, settings.data, form, chosen?.is_experience, experienceName]);

  const publish = async () => {
    if (accountId === null) return;
    const values = await form.validateFields();
    if (visibleLength(values.description ?? '') > SHARE_DESCRIPTION_MAX_LENGTH) return;
    update.mutate(
      {
        accountId,
        body: {
          name: values.name.trim(),
          description: descriptionToSave(values.description ?? ''),
          is_public: true,
          accept_copy: values.accept_copy,
          show_trades: values.show_trades,
          show_positions: values.show_positions,
          allow_comments: values.allow_comments,
          show_rules: values.show_rules,
        },
      },
      {
        onSuccess: (saved) => {
          setPublishedName(saved.name);
          setStep('done');
        },
        onError: (error) =>
          void message.error(
            t('publish.failed', { error: squareErrorText(t, error, t('errors.generic')) }),
          ),
      },
    );
  };

  const openStrategy = () => {
    if (accountId !== null) navigate(`/strategy/${accountId}`);
  };

  return (
    <Flex vertical gap={16} data-testid="publish-page">
      <div>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('publish.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('publish.subtitle')}</Typography.Text>
      </div>
      <Steps
        size="small"
        current={STEPS.indexOf(step)}
        items={STEPS.map((s) => ({ title: t(`publish.steps.${s}`) }))}
        responsive={false}
      />
      {step === 'account' && (
        <AccountStep
          apis={apis}
          accountId={accountId}
          onSelect={setAccountId}
          onNext={() => setStep('details')}
        />
      )}
      {step === 'details' && (
        <DetailsStep
          form={form}
          settings={settings}
          title={chosen ? accountName(chosen, experienceName) : undefined}
          isPublishing={update.isPending}
          onBack={() => setStep('account')}
          onPublish={() => void publish()}
        />
      )}
      {step === 'done' && (
        <DoneStep
          name={publishedName}
          onCreateBot={() => setBotOpen(true)}
          onOpenStrategy={openStrategy}
        />
      )}
      <BotCreateModal
        open={isBotOpen}
        initialAccountId={accountId ?? undefined}
        onClose={() => setBotOpen(false)}
        onCreated={openStrategy}
      />
    </Flex>
  );
}

/** The description editor as a form field (Form.Item gives value and onChange). */
function DescriptionField({
  value,
  onChange,
}: {
  value?: string;
  onChange?: (html: string) => void;
}) {
  return <DescriptionEditor value={value ?? ''} onChange={(html) => onChange?.(html)} />;
}
