import type { StrategyDetail } from '@quantsquare/contracts';
import { Card, Descriptions, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMoney } from '../../shared/format/money';
import { descriptionNodes, hasVisibleText } from './rich-text';

/**
 * The description card (sanitised rich text; the owner alone sees a prompt to write one on
 * /my/account) and the account card: balance in USDT and account type (document 2 §2).
 */
export function StrategyAbout({ strategy }: { strategy: StrategyDetail }) {
  const { t, i18n } = useTranslation();
  const description = strategy.share_settings.description;
  const content = useMemo(
    () => (hasVisibleText(description) ? descriptionNodes(description) : null),
    [description],
  );
  return (
    <>
      <Card size="small" title={t('strategy.description')} data-testid="strategy-description">
        {content ? (
          <div className="qs-rich-text" data-testid="strategy-description-html">
            {content}
          </div>
        ) : strategy.is_owner ? (
          <Typography.Paragraph style={{ margin: 0 }} data-testid="strategy-description-prompt">
            {t('strategy.descriptionEmptyOwner')}{' '}
            <Link to="/my/account">{t('strategy.descriptionEditLink')}</Link>
          </Typography.Paragraph>
        ) : (
          <Typography.Text type="secondary">{t('strategy.descriptionEmpty')}</Typography.Text>
        )}
      </Card>
      <Card size="small" title={t('strategy.account')} data-testid="strategy-account">
        <Descriptions
          column={1}
          size="small"
          items={[
            {
              key: 'balance',
              label: t('strategy.balance'),
              children: (
                <span style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="strategy-balance">
                  {formatMoney(strategy.balance, i18n.language)} USDT
                </span>
              ),
            },
            {
              key: 'type',
              label: t('strategy.accountType'),
              children: (
                <span data-testid="strategy-account-type">
                  {t(`strategy.accountTypes.${strategy.account_type}`)}
                  {strategy.is_paper && (
                    <Tag color="purple" style={{ marginInlineStart: 8 }}>
                      {t('publish.paper')}
                    </Tag>
                  )}
                </span>
              ),
            },
            {
              key: 'exchange',
              label: t('strategy.exchange'),
              children: strategy.exchange.toUpperCase(),
            },
          ]}
        />
      </Card>
    </>
  );
}
