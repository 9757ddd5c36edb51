/**
 * Texts of one group of screens, English and Kiswahili key for key (en.ts merges every part; the type
 * makes a missing Kiswahili key a build error). Top-level keys here belong to this part alone.
 */
export const mapEn = {
  mapView: {
    title: 'Map',
    label: 'Map of the machines',
    legend: {
      title: 'What the markers mean',
      online: 'Online',
      offline: 'Offline',
      alarm: 'Active alarm',
      onlineHint: 'green circle',
      offlineHint: 'grey square',
      alarmHint: 'red triangle with !',
    },
    marker: '{{espId}}, {{status}}',
    popup: {
      location: 'Location',
      noLocation: 'No location given',
      status: 'Status',
      alarms_one: 'Online · {{count}} active alarm',
      alarms_other: 'Online · {{count}} active alarms',
      alarmsOffline_one: 'Offline · {{count}} active alarm',
      alarmsOffline_other: 'Offline · {{count}} active alarms',
      open: 'Open {{espId}}',
    },
    unplaced_one: '{{count}} machine has no position yet: set it on the machine’s device settings page.',
    unplaced_other: '{{count}} machines have no position yet: set it on each machine’s device settings page.',
    nonePlaced: 'No machine has a position yet, so the map shows East Africa.',
    basemapError: 'The background map could not be loaded; the machines are still shown.',
    basemapCredit: 'Map data: Natural Earth (public domain)',
  },
};

export const mapSw: typeof mapEn = {
  mapView: {
    title: 'Ramani',
    label: 'Ramani ya mashine',
    legend: {
      title: 'Maana ya alama',
      online: 'Mtandaoni',
      offline: 'Nje ya mtandao',
      alarm: 'Kengele hai',
      onlineHint: 'duara la kijani',
      offlineHint: 'mraba wa kijivu',
      alarmHint: 'pembetatu nyekundu yenye !',
    },
    marker: '{{espId}}, {{status}}',
    popup: {
      location: 'Mahali',
      noLocation: 'Mahali hapajatajwa',
      status: 'Hali',
      alarms_one: 'Mtandaoni · kengele {{count}} hai',
      alarms_other: 'Mtandaoni · kengele {{count}} hai',
      alarmsOffline_one: 'Nje ya mtandao · kengele {{count}} hai',
      alarmsOffline_other: 'Nje ya mtandao · kengele {{count}} hai',
      open: 'Fungua {{espId}}',
    },
    unplaced_one: 'Mashine {{count}} bado haina mahali pake: iweke kwenye ukurasa wa mipangilio ya mashine hiyo.',
    unplaced_other: 'Mashine {{count}} bado hazina mahali pake: ziweke kwenye ukurasa wa mipangilio wa kila mashine.',
    nonePlaced: 'Hakuna mashine yenye mahali bado, kwa hiyo ramani inaonyesha Afrika Mashariki.',
    basemapError: 'Ramani ya nyuma haikupakiwa; mashine bado zinaonyeshwa.',
    basemapCredit: 'Data ya ramani: Natural Earth (mali ya umma)',
  },
};
