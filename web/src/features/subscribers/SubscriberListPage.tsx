import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function SubscriberListPage() {
  return <PlaceholderPage title="Assinantes" />;
}
