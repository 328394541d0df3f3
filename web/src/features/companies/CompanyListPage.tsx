import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function CompanyListPage() {
  return <PlaceholderPage title="Empresas" />;
}
