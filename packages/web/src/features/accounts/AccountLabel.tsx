import { GiftOutlined } from '@ant-design/icons';
import { EXPERIENCE_ACCOUNT_BALANCE } from '@quantsquare/contracts';
import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountName } from '../../shared/format/account-format';
import { formatGrouped } from '../../shared/format/money';

interface Props {
  account: { name: string; is_paper: boolean; is_experience: boolean };
  /** Test ids: `{prefix}-name`, `{prefix}-experience-tag`, `{prefix}-paper-tag`. */
  testIdPrefix: string;
}

/**
 * An account's name with its kind: the experience account (every new user's paper account) is
 * marked with a gift and says what it is; other paper accounts are tagged paper.
 */
export function AccountLabel({ account, testIdPrefix }: Props) {
  const { t, i18n } = useTranslation();
  const experienceName = t('apis.experienceName');
  const name = accountName(account, experienceName);
  return (
    <>
      <Typography.Text strong data-testid={`${testIdPrefix}-name`}>
        {name}
      </Typography.Text>
      {account.is_experience ? (
        <Tooltip
          title={t('apis.experienceHint', {
            balance: formatGrouped(EXPERIENCE_ACCOUNT_BALANCE, i18n.language),
          })}
        >
          <Tag
            color="gold"
            icon={<GiftOutlined />}
            data-testid={`${testIdPrefix}-experience-tag`}
            style={{ marginInlineEnd: 0 }}
          >
            {/* The name says "experience account" already unless its owner renamed it. */}
            {name === experienceName ? t('apis.paper') : t('apis.experience')}
          </Tag>
        </Tooltip>
      ) : (
        account.is_paper && (
          <Tag
            color="purple"
            data-testid={`${testIdPrefix}-paper-tag`}
            style={{ marginInlineEnd: 0 }}
          >
            {t('apis.paper')}
          </Tag>
        )
      )}
    </>
  );
}
