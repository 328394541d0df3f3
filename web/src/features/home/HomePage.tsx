import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function HomePage() {
  return <PlaceholderPage title="Início" />;
}
