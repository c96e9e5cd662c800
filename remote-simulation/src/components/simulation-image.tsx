import { useState } from 'react';
import styled from 'styled-components';
import { assetUrl, PLACEHOLDER_IMAGE } from '../lib/asset-url';

const Img = styled.img`
  display: block;
  width: 100%;
  aspect-ratio: 8 / 5;
  object-fit: cover;
  background: ${({ theme }) => theme.colors.surfaceMuted};
`;

export interface SimulationImageProps {
  /** Path relative to this remote's public folder (the catalogue's `image`); null = placeholder. */
  path: string | null;
  /** '' when the image only decorates a card whose link already names it. */
  alt?: string;
  className?: string;
}

/** A product or category picture; a missing or broken one shows the placeholder instead. */
export function SimulationImage({ path, alt = '', className }: SimulationImageProps) {
  // Remembers which path failed, so a card reused for another item tries that item's image.
  const [failedPath, setFailedPath] = useState<string | null>(null);
  const src = assetUrl(path && path !== failedPath ? path : PLACEHOLDER_IMAGE);
  return (
    <Img
      src={src}
      alt={alt}
      className={className}
      loading="lazy"
      // Only the item's own image falls back: a broken placeholder must not loop.
      onError={() => setFailedPath(path)}
    />
  );
}
