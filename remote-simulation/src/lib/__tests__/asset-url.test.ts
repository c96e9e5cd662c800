import { assetUrl } from '../asset-url';

describe("the remote's image URLs", () => {
  it("resolve against the remote's public path, wherever it is deployed", () => {
    expect(assetUrl('images/products/radiography.svg', 'http://localhost:8081/')).toBe(
      'http://localhost:8081/images/products/radiography.svg',
    );
    expect(assetUrl('/images/placeholder.svg', 'https://cdn.example/simulation/1.2.0/')).toBe(
      'https://cdn.example/simulation/1.2.0/images/placeholder.svg',
    );
  });

  it('leave absolute URLs alone', () => {
    expect(assetUrl('https://images.example/x.svg', 'http://localhost:8081/')).toBe(
      'https://images.example/x.svg',
    );
  });

  it("fall back to the page's origin outside a webpack build", () => {
    expect(assetUrl('images/placeholder.svg')).toBe('http://localhost/images/placeholder.svg');
  });
});
