import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function AgendaPage() {
  return <PlaceholderPage title="Agenda" />;
}
