/** A copyright with the current year and 'Water Vending Solutions' (docs/web-app.md, "Screens"). */
export function Footer() {
  return (
    <footer className="footer">
      <p>© {new Date().getFullYear()} Water Vending Solutions</p>
    </footer>
  );
}
