export interface PlaceholderProps {
  title: string;
  summary: string;
}

/** A page that is not built yet: its heading and what it will hold. */
export function Placeholder({ title, summary }: PlaceholderProps) {
  return (
    <>
      <h1>{title}</h1>
      <p class="lead">{summary}</p>
    </>
  );
}
