import type { AdminUserRow } from '@wv/contracts';

/** GET /admin/users as a table; scrolls sideways on a phone rather than squeezing the columns. */
export function UsersTable({ users }: { users: readonly AdminUserRow[] }) {
  if (!users.length) return <p className="empty">No users found.</p>;
  return (
    <div className="table-wrap">
      <table className="table table-stack">
        <caption className="visually-hidden">Users</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Username</th>
            <th scope="col">Email</th>
            <th scope="col">Phone</th>
            <th scope="col">Location</th>
            <th scope="col">Role</th>
            <th scope="col">Devices</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.userId}>
              <td data-label="Name">
                {user.firstName} {user.lastName}
              </td>
              <td data-label="Username">{user.username}</td>
              <td data-label="Email">{user.email ?? '—'}</td>
              <td data-label="Phone" className="nowrap">
                {user.phoneNumber}
              </td>
              <td data-label="Location">{user.location}</td>
              <td data-label="Role">
                <span className={`badge badge-${user.role}`}>{user.role}</span>
              </td>
              <td data-label="Devices">
                {user.devices.length ? (
                  <ul className="plain-list">
                    {user.devices.map((device) => (
                      <li key={device.esp32Id}>
                        <strong>{device.esp32Id}</strong>
                        {device.machine_location && <span className="muted"> · {device.machine_location}</span>}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">None</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
