import { Flex } from 'antd';
import { Text } from '../ui/ui';

/** A line chart's legend entry: a short stroke in the series' colour (dashed or solid), its name. */
export function LegendLine({
  color,
  dashed = false,
  label,
}: {
  color: string;
  dashed?: boolean;
  label: string;
}) {
  return (
    <Flex align="center" gap={6}>
      <span
        style={{
          width: 18,
          borderTop: `2px ${dashed ? 'dashed' : 'solid'} ${color}`,
          display: 'inline-block',
        }}
      />
      <Text size={12}>{label}</Text>
    </Flex>
  );
}
