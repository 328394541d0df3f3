// Icons the shared set (components/Icon.tsx) lacks; decorative, the button carries the name.

const svg = (path: string) =>
  function FeatureIcon({ size = 20 }: { size?: number }) {
    return (
      <svg width={size} height={size} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
        <path d={path} />
      </svg>
    );
  };

export const EditIcon = svg(
  'M3 17.25V21h3.75L17.81 9.94l-3.75-3.75L3 17.25zM20.71 7.04a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75 1.83-1.83z',
);
export const DeleteIcon = svg('M6 19c0 1.1.9 2 2 2h8c1.1 0 2-.9 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z');
export const UploadIcon = svg('M9 16h6v-6h4l-7-7-7 7h4zm-4 2h14v2H5z');
