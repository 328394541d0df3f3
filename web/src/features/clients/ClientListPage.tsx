import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function ClientListPage() {
  return <PlaceholderPage title="Clientes" />;
}
