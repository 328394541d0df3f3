import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function ProfessionalListPage() {
  return <PlaceholderPage title="Profissionais" />;
}
