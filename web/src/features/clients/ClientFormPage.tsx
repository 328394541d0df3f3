import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function ClientFormPage() {
  return <PlaceholderPage title="Cliente" />;
}
