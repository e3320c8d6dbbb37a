import type { GroupMembersPage } from './platform.types';

/**
 * Reads the community group members list (`/gid/{gid64}/memberslistxml/?xml=1`). The document is flat and small
 * (a dozen scalar elements and a list of ids) and its shape is fixed, so a few anchored patterns read it; an XML
 * parser dependency would add nothing here. Text comes in CDATA sections or with the five predefined entities and
 * numeric character references.
 *
 * Returns null for anything that is not a members list (the platform answers some errors with an HTML page and
 * HTTP 200), which the caller treats as the platform being unavailable.
 */
export function parseMembersListXml(xml: string): Omit<GroupMembersPage, 'visibility'> | null {
  if (!/<memberList>[\s\S]*<\/memberList>/.test(xml)) return null;
  const groupId64 = element(xml, 'groupID64');
  if (!groupId64 || !/^\d{1,20}$/.test(groupId64)) return null;
  const details = /<groupDetails>([\s\S]*?)<\/groupDetails>/.exec(xml)?.[1] ?? '';
  // The page-level elements follow the details block, which repeats memberCount.
  const rest = xml.replace(/<groupDetails>[\s\S]*?<\/groupDetails>/, '');
  const members = /<members>([\s\S]*?)<\/members>/.exec(xml)?.[1] ?? '';
  return {
    groupId64,
    name: element(details, 'groupName') ?? '',
    vanity: element(details, 'groupURL') ?? '',
    headline: element(details, 'headline') ?? '',
    summary: element(details, 'summary') ?? '',
    avatarIcon: element(details, 'avatarIcon') ?? '',
    avatarMedium: element(details, 'avatarMedium') ?? '',
    avatarFull: element(details, 'avatarFull') ?? '',
    memberCount: count(element(details, 'memberCount') ?? element(rest, 'memberCount')),
    totalPages: Math.max(1, count(element(rest, 'totalPages'))),
    currentPage: Math.max(1, count(element(rest, 'currentPage'))),
    members: [...members.matchAll(/<steamID64>\s*(\d{1,20})\s*<\/steamID64>/g)].map((match) => match[1]),
  };
}

/** The text of the first `<name>` element directly holding text or CDATA; null when absent. */
function element(xml: string, name: string): string | null {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  if (!match) return null;
  let text = '';
  let rest = match[1];
  // Text and CDATA sections may alternate (a `]]>` inside text is split across two sections).
  for (;;) {
    const start = rest.indexOf('<![CDATA[');
    if (start < 0) break;
    const end = rest.indexOf(']]>', start + 9);
    if (end < 0) break;
    text += decodeEntities(rest.slice(0, start)) + rest.slice(start + 9, end);
    rest = rest.slice(end + 3);
  }
  return (text + decodeEntities(rest)).trim();
}

function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g, (_, dec: string, hex: string, named: string) => {
    if (dec || hex) {
      const code = dec ? Number(dec) : parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[named]!;
  });
}

function count(text: string | null): number {
  const value = Number((text ?? '').replace(/,/g, ''));
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
