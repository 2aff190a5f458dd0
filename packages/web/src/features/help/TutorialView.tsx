import { Alert, Button, Card, Collapse, Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

const SECTIONS = ['quickStart', 'apiSetup', 'createStrategy', 'squareCopy', 'risk', 'faq'] as const;
type Section = (typeof SECTIONS)[number];

function Steps({ items, testId }: { items: Record<string, string>; testId?: string }) {
  return (
    <ol
      style={{ margin: '0 0 12px', paddingInlineStart: 22, lineHeight: 1.8 }}
      data-testid={testId}
    >
      {Object.entries(items).map(([key, text]) => (
        <li key={key}>{text}</li>
      ))}
    </ol>
  );
}

function SectionCard({ id, title, children }: { id: Section; title: string; children: ReactNode }) {
  return (
    <Card
      id={`tutorial-${id}`}
      title={title}
      size="small"
      // Clear of the sticky header when jumped to from the contents.
      style={{ scrollMarginTop: 80 }}
      styles={{ body: { paddingBlock: 16 } }}
      data-testid={`tutorial-${id}`}
    >
      {children}
    </Card>
  );
}

/** The tutorial tab (document 2 §2): six sections written for this product. */
export function TutorialView() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const go = (label: string, to: string) => (
    <Button type="link" style={{ paddingInline: 0 }} onClick={() => navigate(to)}>
      {label} →
    </Button>
  );
  const paragraph = (content: string) => (
    <Typography.Paragraph style={{ marginBottom: 12 }}>{content}</Typography.Paragraph>
  );
  const tutorial = t('helpCenter.tutorial', { returnObjects: true });

  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {tutorial.title}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {tutorial.intro}
        </Typography.Paragraph>
        <nav aria-label={tutorial.contents}>
          <Flex gap={8} wrap>
            {SECTIONS.map((section, index) => (
              <a
                key={section}
                href={`#tutorial-${section}`}
                onClick={(event) => {
                  event.preventDefault();
                  document
                    .getElementById(`tutorial-${section}`)
                    ?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                }}
                style={{
                  padding: '2px 10px',
                  borderRadius: 12,
                  background: token.colorFillTertiary,
                  fontSize: 13,
                }}
              >
                {index + 1}. {tutorial[section].title}
              </a>
            ))}
          </Flex>
        </nav>
      </div>

      <SectionCard id="quickStart" title={`1. ${tutorial.quickStart.title}`}>
        {paragraph(tutorial.quickStart.intro)}
        <Steps items={tutorial.quickStart.steps} />
        {go(tutorial.quickStart.action, '/dashboard')}
      </SectionCard>

      <SectionCard id="apiSetup" title={`2. ${tutorial.apiSetup.title}`}>
        <Alert
          type="warning"
          showIcon
          title={tutorial.apiSetup.intro}
          style={{ marginBottom: 16 }}
        />
        <Typography.Title level={5}>{tutorial.apiSetup.binanceTitle}</Typography.Title>
        <Steps items={tutorial.apiSetup.binance} testId="tutorial-binance" />
        <Typography.Title level={5}>{tutorial.apiSetup.okxTitle}</Typography.Title>
        <Steps items={tutorial.apiSetup.okx} testId="tutorial-okx" />
        <Typography.Title level={5}>{tutorial.apiSetup.addTitle}</Typography.Title>
        <Steps items={tutorial.apiSetup.add} />
        <Typography.Paragraph type="danger" style={{ marginBottom: 8 }}>
          {tutorial.apiSetup.warning}
        </Typography.Paragraph>
        {go(tutorial.apiSetup.action, '/my/api-management')}
      </SectionCard>

      <SectionCard id="createStrategy" title={`3. ${tutorial.createStrategy.title}`}>
        {paragraph(tutorial.createStrategy.intro)}
        <Steps items={tutorial.createStrategy.steps} />
        <Alert
          type="info"
          showIcon
          title={tutorial.createStrategy.note}
          style={{ marginBottom: 8 }}
        />
        {go(tutorial.createStrategy.action, '/dashboard')}
      </SectionCard>

      <SectionCard id="squareCopy" title={`4. ${tutorial.squareCopy.title}`}>
        {paragraph(tutorial.squareCopy.intro)}
        <Steps items={tutorial.squareCopy.steps} />
        {go(tutorial.squareCopy.action, '/strategy-square')}
      </SectionCard>

      <SectionCard id="risk" title={`5. ${tutorial.risk.title}`}>
        {paragraph(tutorial.risk.intro)}
        <ul style={{ margin: '0 0 12px', paddingInlineStart: 22, lineHeight: 1.8 }}>
          {Object.entries(tutorial.risk.items).map(([key, item]) => (
            <li key={key}>{item}</li>
          ))}
        </ul>
        <Alert type="warning" showIcon title={tutorial.risk.warning} />
      </SectionCard>

      <SectionCard id="faq" title={`6. ${tutorial.faq.title}`}>
        <Collapse
          ghost
          items={Object.entries(tutorial.faq.items).map(([key, item]) => ({
            key,
            label: item.q,
            children: <Typography.Paragraph style={{ margin: 0 }}>{item.a}</Typography.Paragraph>,
          }))}
        />
      </SectionCard>
    </Flex>
  );
}
