import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function SubscriberFormPage() {
  return <PlaceholderPage title="Assinante" />;
}
