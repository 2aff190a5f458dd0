import { GlobalOutlined, MailOutlined, SendOutlined, XOutlined } from '@ant-design/icons';
import { Card, Col, Row, Skeleton, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useHelpContact } from '../../api/help';
import { QueryErrorAlert } from '../../shared/ui/QueryState';

function Channel(props: {
  icon: ReactNode;
  title: string;
  hint: string;
  href: string;
  text: string;
  testId: string;
}) {
  const { token } = theme.useToken();
  const isExternal = !props.href.startsWith('mailto:');
  return (
    <Card size="small" style={{ height: '100%' }}>
      <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
        <span style={{ fontSize: 22, color: token.colorPrimary, lineHeight: 1 }}>{props.icon}</span>
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong>{props.title}</Typography.Text>
          <div>
            <a
              href={props.href}
              {...(isExternal ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
              style={{ overflowWrap: 'anywhere' }}
              data-testid={props.testId}
            >
              {props.text}
            </a>
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            {props.hint}
          </Typography.Text>
        </div>
      </div>
    </Card>
  );
}

const withoutScheme = (url: string) => url.replace(/^https?:\/\//, '').replace(/\/$/, '');

/** The contact tab: the operators' channels from the server's configuration (document 2 §2). */
export function ContactView() {
  const { t } = useTranslation();
  const contact = useHelpContact();
  return (
    <div>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('helpCenter.contact.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('helpCenter.contact.intro')}</Typography.Paragraph>
      {contact.isPending && <Skeleton active />}
      {contact.isError && (
        <QueryErrorAlert query={contact} failedText={t('helpCenter.contact.loadFailed')} />
      )}
      {contact.data && (
        <Row gutter={[12, 12]}>
          <Col xs={24} sm={12}>
            <Channel
              icon={<MailOutlined />}
              title={t('helpCenter.contact.email')}
              hint={t('helpCenter.contact.emailHint')}
              href={`mailto:${contact.data.support_email}`}
              text={contact.data.support_email}
              testId="contact-email"
            />
          </Col>
          <Col xs={24} sm={12}>
            <Channel
              icon={<SendOutlined />}
              title={t('helpCenter.contact.telegram')}
              hint={t('helpCenter.contact.telegramHint')}
              href={contact.data.telegram_url}
              text={withoutScheme(contact.data.telegram_url)}
              testId="contact-telegram"
            />
          </Col>
          <Col xs={24} sm={12}>
            <Channel
              icon={<XOutlined />}
              title={t('helpCenter.contact.x')}
              hint={t('helpCenter.contact.xHint')}
              href={contact.data.x_url}
              text={withoutScheme(contact.data.x_url)}
              testId="contact-x"
            />
          </Col>
          <Col xs={24} sm={12}>
            <Channel
              icon={<GlobalOutlined />}
              title={t('helpCenter.contact.website')}
              hint={t('helpCenter.contact.websiteHint')}
              href={contact.data.website_url}
              text={withoutScheme(contact.data.website_url)}
              testId="contact-website"
            />
          </Col>
        </Row>
      )}
    </div>
  );
}
