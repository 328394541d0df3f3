import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function HolidayListPage() {
  return <PlaceholderPage title="Feriados" />;
}
