import { Accordion, Card, Heading, Text } from '@aws-amplify/ui-react';
import { Link } from 'react-router';
import { Page } from '../../../components/page';
import { FAQ, SUPPORT_EMAIL } from '../faq';

export default function UserGuidePage() {
  return (
    <Page title="User Guide" subtitle="Answers to the questions we hear most often.">
      <section aria-labelledby="faq-heading">
        <Heading level={2} id="faq-heading" className="section-title">
          Frequently asked questions
        </Heading>
        <Accordion.Container className="faq" allowMultiple>
          {FAQ.map((entry) => (
            <Accordion.Item key={entry.id} value={entry.id}>
              <Accordion.Trigger>
                {entry.question}
                <Accordion.Icon />
              </Accordion.Trigger>
              <Accordion.Content>
                {entry.answer.map((p, i) => (
                  <Text key={i} className="faq__paragraph">
                    {p}
                  </Text>
                ))}
              </Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Container>
      </section>
      <Card variation="outlined" className="support-card">
        <Heading level={2} className="section-title">
          Still need help?
        </Heading>
        <Text>
          Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. We reply within 24 hours.
        </Text>
        <Text>
          Read how we handle your data in our <Link to="/privacy-policy">privacy policy</Link>.
        </Text>
      </Card>
    </Page>
  );
}
