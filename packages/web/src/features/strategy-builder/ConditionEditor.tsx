import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  RULE_LIMITS,
  RULE_OPERATORS,
  type RuleCondition,
  type RuleLeaf,
  type RuleOperator,
} from '@quantsquare/contracts';
import { Button, Flex, Select, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { childrenOf, isLeaf } from '../../shared/rules/describe-rules';
import { OperandEditor } from './OperandEditor';
import { newLeaf, type ProblemKey } from './rule-model';

interface Props {
  value: RuleCondition;
  onChange: (next: RuleCondition) => void;
  onRemove: () => void;
  /** The server's name of this condition (`entry_long.all.1`). */
  path: string;
  /** Of a group: 1 for a slot's top group. */
  depth: number;
  /** Whether one more comparison fits under the limit. */
  canAddLeaf: boolean;
  problems: ReadonlyMap<string, ProblemKey>;
}

/** The problems under `prefix.` with the prefix taken off (an operand's own fields). */
// Conditions are plain data edited immutably, without ids of their own. Each gets one the first
// time it is drawn, and an edited condition keeps its predecessor's, so removing a sibling never
// hands one condition's editor (and its half-typed input) to another.
const identities = new WeakMap<RuleCondition, number>();
let lastIdentity = 0;

function identityOf(condition: RuleCondition): number {
  let id = identities.get(condition);
  if (id === undefined) {
    id = ++lastIdentity;
    identities.set(condition, id);
  }
  return id;
}

function keepIdentity(previous: RuleCondition, next: RuleCondition): void {
  identities.set(next, identityOf(previous));
}

function problemsUnder(problems: ReadonlyMap<string, ProblemKey>, prefix: string) {
  const out = new Map<string, ProblemKey>();
  for (const [path, key] of problems) {
    if (path.startsWith(`${prefix}.`)) out.set(path.slice(prefix.length + 1), key);
  }
  return out;
}

/** Removes a condition or a group. */
function RemoveButton({ testId, onRemove }: { testId: string; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      size="small"
      type="text"
      danger
      icon={<DeleteOutlined />}
      aria-label={t('builder.remove')}
      data-testid={testId}
      onClick={onRemove}
    />
  );
}

/** A comparison: two operands and the operator between them. */
function LeafEditor({
  value,
  onChange,
  onRemove,
  path,
  depth,
  canAddLeaf,
  problems,
}: Omit<Props, 'value'> & { value: RuleLeaf }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // A lone comparison at a slot's top: adding a condition makes it an "all" group.
  const canWrap = depth === 1 && canAddLeaf;
  return (
    <Flex
      wrap
      gap={6}
      align="center"
      data-testid="rule-leaf"
      style={{
        padding: 6,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
      }}
    >
      <OperandEditor
        value={value.left}
        onChange={(left) => onChange({ ...value, left })}
        problems={problemsUnder(problems, `${path}.left`)}
        testId="operand-left"
      />
      <Select<RuleOperator>
        size="small"
        data-testid="rule-operator"
        aria-label={t('builder.operators.gt')}
        value={value.op}
        onChange={(op) => onChange({ ...value, op })}
        options={RULE_OPERATORS.map((op) => ({ value: op, label: t(`builder.operators.${op}`) }))}
        popupMatchSelectWidth={false}
        style={{ width: 136 }}
      />
      <OperandEditor
        value={value.right}
        onChange={(right) => onChange({ ...value, right })}
        problems={problemsUnder(problems, `${path}.right`)}
        testId="operand-right"
      />
      {canWrap && (
        <Button
          size="small"
          icon={<PlusOutlined />}
          data-testid="add-condition"
          onClick={() => onChange({ all: [value, newLeaf()] })}
        >
          {t('builder.addCondition')}
        </Button>
      )}
      <RemoveButton testId="remove-condition" onRemove={onRemove} />
    </Flex>
  );
}

/** A comparison, or an all/any group of conditions (groups nest up to RULE_LIMITS.maxDepth). */
export function ConditionEditor(props: Props) {
  const { value, onChange, onRemove, path, depth, canAddLeaf, problems } = props;
  const { t } = useTranslation();
  const { token } = theme.useToken();

  if (isLeaf(value)) return <LeafEditor {...props} value={value} />;

  const key = 'all' in value ? 'all' : 'any';
  const children = childrenOf(value);
  const rebuild = (next: readonly RuleCondition[], mode: 'all' | 'any' = key) =>
    mode === 'all' ? { all: next } : { any: next };
  const replaceChild = (index: number, child: RuleCondition) => {
    const old = children[index];
    if (old) keepIdentity(old, child);
    onChange(rebuild(children.map((c, k) => (k === index ? child : c))));
  };
  const removeChild = (index: number) => {
    const rest = children.filter((_, k) => k !== index);
    if (rest.length === 0) onRemove();
    else onChange(rebuild(rest));
  };

  return (
    <Flex
      vertical
      gap={8}
      data-testid="rule-group"
      style={{
        padding: 8,
        borderInlineStart: `3px solid ${depth % 2 === 1 ? token.colorPrimary : token.colorWarning}`,
        background: token.colorFillQuaternary,
        borderRadius: token.borderRadius,
      }}
    >
      <Flex gap={6} align="center" wrap>
        <Select<'all' | 'any'>
          size="small"
          data-testid="group-mode"
          aria-label={t('builder.groupAll')}
          value={key}
          onChange={(mode) => onChange(rebuild(children, mode))}
          options={[
            { value: 'all', label: t('builder.groupAll') },
            { value: 'any', label: t('builder.groupAny') },
          ]}
          style={{ width: 104 }}
        />
        <Button
          size="small"
          icon={<PlusOutlined />}
          disabled={!canAddLeaf}
          data-testid="add-condition"
          onClick={() => onChange(rebuild([...children, newLeaf()]))}
        >
          {t('builder.addCondition')}
        </Button>
        {depth < RULE_LIMITS.maxDepth && (
          <Button
            size="small"
            icon={<PlusOutlined />}
            disabled={!canAddLeaf}
            data-testid="add-group"
            onClick={() => onChange(rebuild([...children, { any: [newLeaf()] }]))}
          >
            {t('builder.addGroup')}
          </Button>
        )}
        <RemoveButton testId="remove-group" onRemove={onRemove} />
      </Flex>
      {children.map((child, index) => (
        <ConditionEditor
          key={identityOf(child)}
          value={child}
          onChange={(next) => replaceChild(index, next)}
          onRemove={() => removeChild(index)}
          path={`${path}.${key}.${index}`}
          depth={depth + 1}
          canAddLeaf={canAddLeaf}
          problems={problems}
        />
      ))}
    </Flex>
  );
}
