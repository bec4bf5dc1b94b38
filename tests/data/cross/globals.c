/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Cross-architecture fixture for mycl-share and the disassembler: a seed
 * written in a loop next to a read-mostly switch, as in the MySQL article,
 * built without libc (-nostdlib -static) so no other code is in the file.
 */
unsigned long pad_block[6] __attribute__((aligned(256))) = { 1, 2, 3, 4, 5, 6 };
unsigned long seed_counter = 1;		/* +0x30: written */
unsigned long pad2 = 2;			/* +0x38 */
char search_enabled = 1;		/* +0x40: read */

unsigned long spin(unsigned long n);
unsigned long lookup(unsigned long key);
void _start(void);

__attribute__((noinline)) unsigned long spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		seed_counter = seed_counter * 151117737UL + 119785373UL;
	return seed_counter;
}

__attribute__((noinline)) unsigned long lookup(unsigned long key)
{
	return search_enabled ? key * 3 : key;
}

void _start(void)
{
	volatile unsigned long sink = spin(10) + lookup(4);

	(void)sink;
	for (;;)
		;
}
