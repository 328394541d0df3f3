import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function CompanyFormPage() {
  return <PlaceholderPage title="Empresa" />;
}
