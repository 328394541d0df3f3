import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function HolidayFormPage() {
  return <PlaceholderPage title="Feriado" />;
}
