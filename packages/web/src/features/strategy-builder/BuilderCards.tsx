import { PlusOutlined } from '@ant-design/icons';
import {
  RULE_LIMITS,
  RULE_SLOTS,
  type RuleSlot,
  USER_STRATEGY_DESCRIPTION_MAX_LENGTH,
  USER_STRATEGY_NAME_MAX_LENGTH,
} from '@quantsquare/contracts';
import { Button, Card, Flex, Input, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { describeRules } from '../../shared/rules/describe-rules';
import { ConditionEditor } from './ConditionEditor';
import type { EditableRules, ProblemKey } from './rule-model';
import type { Draft } from './use-strategy-draft';

// The builder page's cards; the page owns the draft they edit.

/** The name (required), the description and the three protections. */
export function DraftDetailsCard({
  draft,
  onChange,
  isNameRefused,
}: {
  draft: Draft;
  onChange: (next: Draft) => void;
  isNameRefused: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small">
      <Flex vertical gap={12}>
        <div>
          <Typography.Text strong>{t('builder.name')}</Typography.Text>
          <Input
            data-testid="strategy-name"
            aria-label={t('builder.name')}
            value={draft.name}
            maxLength={USER_STRATEGY_NAME_MAX_LENGTH}
            placeholder={t('builder.namePlaceholder')}
            status={isNameRefused ? 'error' : undefined}
            onChange={(e) => onChange({ ...draft, name: e.target.value })}
          />
          {isNameRefused && (
            <Typography.Text type="danger" data-testid="name-error">
              {t('builder.nameRequired')}
            </Typography.Text>
          )}
        </div>
        <div>
          <Typography.Text strong>{t('builder.description')}</Typography.Text>
          <Input.TextArea
            aria-label={t('builder.description')}
            value={draft.description}
            maxLength={USER_STRATEGY_DESCRIPTION_MAX_LENGTH}
            autoSize={{ minRows: 1, maxRows: 4 }}
            onChange={(e) => onChange({ ...draft, description: e.target.value })}
          />
        </div>
        <div>
          <Typography.Text strong>{t('builder.protections')}</Typography.Text>
          <Flex wrap gap={8} style={{ marginTop: 4 }}>
            {(
              [
                ['stopLoss', 'builder.stopLoss', 50],
                ['takeProfit', 'builder.takeProfit', 100],
                ['trailingStop', 'builder.trailingStop', 50],
              ] as const
            ).map(([field, label, max]) => (
              <InputNumber<number>
                key={field}
                aria-label={t(label)}
                prefix={t(label)}
                min={0.1}
                max={max}
                step={0.5}
                value={draft[field]}
                onChange={(value) => onChange({ ...draft, [field]: value ?? null })}
                style={{ width: 180 }}
              />
            ))}
          </Flex>
        </div>
      </Flex>
    </Card>
  );
}

function ErrorLines({ texts }: { texts: readonly string[] }) {
  return texts.map((text) => (
    <Typography.Text key={text} type="danger" data-testid="field-error">
      {text}
    </Typography.Text>
  ));
}

interface RulesCardProps {
  rules: EditableRules;
  onSlotChange: (slot: RuleSlot, value: EditableRules[RuleSlot]) => void;
  leaves: number;
  problems: ReadonlyMap<string, ProblemKey>;
  /** The texts under one slot (none while they are not shown). */
  slotMessages: (slot: RuleSlot) => string[];
  generalErrors: readonly string[];
}

/** The four rule slots, each a condition or a button to set one, and the leaf count. */
export function RulesCard({
  rules,
  onSlotChange,
  leaves,
  problems,
  slotMessages,
  generalErrors,
}: RulesCardProps) {
  const { t } = useTranslation();
  const canAddLeaf = leaves < RULE_LIMITS.maxLeaves;
  return (
    <Card
      size="small"
      data-testid="rules-card"
      title={t('builder.rules')}
      extra={
        <Typography.Text type="secondary" data-testid="leaf-count">
          {t('builder.limitsHint', { count: leaves, max: RULE_LIMITS.maxLeaves })}
        </Typography.Text>
      }
    >
      <Flex vertical gap={16}>
        {RULE_SLOTS.map((slot) => {
          const condition = rules[slot];
          return (
            <Flex key={slot} vertical gap={6} data-testid={`slot-${slot}`}>
              <Typography.Text strong>{t(`builder.slots.${slot}`)}</Typography.Text>
              {condition ? (
                <ConditionEditor
                  value={condition}
                  onChange={(next) => onSlotChange(slot, next)}
                  onRemove={() => onSlotChange(slot, null)}
                  path={slot}
                  depth={1}
                  canAddLeaf={canAddLeaf}
                  problems={problems}
                />
              ) : (
                <Button
                  size="small"
                  icon={<PlusOutlined />}
                  disabled={!canAddLeaf}
                  data-testid="set-condition"
                  onClick={() =>
                    onSlotChange(slot, {
                      left: { indicator: 'sma', period: 10 },
                      op: slot.startsWith('exit') ? 'crosses_below' : 'crosses_above',
                      right: { indicator: 'sma', period: 30 },
                    })
                  }
                  style={{ alignSelf: 'flex-start' }}
                >
                  {t('builder.setCondition')}
                </Button>
              )}
              <ErrorLines texts={slotMessages(slot)} />
            </Flex>
          );
        })}
        <ErrorLines texts={generalErrors} />
      </Flex>
    </Card>
  );
}

/** The rules said as sentences. */
export function SentenceCard({ rules }: { rules: EditableRules }) {
  const { t } = useTranslation();
  const sentences = describeRules(t, rules);
  return (
    <Card size="small" title={t('builder.sentence.title')}>
      <Flex vertical gap={4} data-testid="rule-sentence">
        {sentences.length === 0 ? (
          <Typography.Text type="secondary">{t('builder.sentence.none')}</Typography.Text>
        ) : (
          sentences.map((text) => <Typography.Text key={text}>{text}</Typography.Text>)
        )}
      </Flex>
    </Card>
  );
}
