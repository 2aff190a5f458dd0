import { Collapse, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The FAQ tab: the spec's three questions (document 2 §2). */
export function FaqView() {
  const { t } = useTranslation();
  const faq = t('helpCenter.faq', { returnObjects: true });
  return (
    <div>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {faq.title}
      </Typography.Title>
      <Collapse
        defaultActiveKey={['createStrategy']}
        items={Object.entries(faq.items).map(([key, item]) => ({
          key,
          label: item.q,
          children: (
            <Typography.Paragraph style={{ margin: 0, lineHeight: 1.8 }}>
              {item.a}
            </Typography.Paragraph>
          ),
        }))}
        data-testid="faq-list"
      />
    </div>
  );
}
