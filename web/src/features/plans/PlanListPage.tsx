import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function PlanListPage() {
  return <PlaceholderPage title="Planos" />;
}
