/** Seed section 2: a copyright with the current year and 'Water Vending Solutions'. */
export function Footer() {
  return (
    <footer className="footer">
      <p>© {new Date().getFullYear()} Water Vending Solutions</p>
    </footer>
  );
}
