import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function PlanFormPage() {
  return <PlaceholderPage title="Plano" />;
}
