interface PlaceholderPageProps {
  title: string;
}

/** Stand-in for a screen that is not built yet: just its heading. */
export function PlaceholderPage({ title }: PlaceholderPageProps) {
  return (
    <section className="page">
      <h1 className="page-title">{title}</h1>
    </section>
  );
}
