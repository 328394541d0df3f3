import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function ProfessionalFormPage() {
  return <PlaceholderPage title="Profissional" />;
}
